package io.axscheduler.testing;

import io.axscheduler.api.Namespaces;
import io.axscheduler.api.job.Backoff;
import io.axscheduler.api.job.JobCanceled;
import io.axscheduler.api.job.JobClaimed;
import io.axscheduler.api.job.JobCreated;
import io.axscheduler.api.job.JobFailed;
import io.axscheduler.api.job.JobRetryScheduled;
import io.axscheduler.api.job.JobStarted;
import io.axscheduler.api.job.JobStatus;
import io.axscheduler.api.job.JobSucceeded;
import io.axscheduler.api.job.JobTimedOut;
import io.axscheduler.api.job.RetryPolicy;
import io.axscheduler.api.job.SubmitJob;
import io.axscheduler.api.job.TimeoutPhase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A job for tests, with known values that a test changes only where it cares, and the events of its life:
 * {@code aJob().withType("sleep").historyUpTo(RUNNING)}. Every value is fixed, so two tests building the same job
 * build equal commands and events.
 */
public final class AJob {

    public static final Instant CREATED_AT = Instant.parse("2026-11-30T10:00:00.000Z");
    public static final String NODE = "node-a";

    private String jobId = "job-1";
    private String jobKey = "order-42-close";
    private String jobType = "noop";
    private Map<String, Object> params = Map.of("orderNo", "42");
    private int priority = 7;
    private Instant runAt = Instant.parse("2026-11-30T10:05:00.250Z");
    private RetryPolicy retryPolicy = new RetryPolicy(3, Backoff.defaults());
    private long timeoutMs = 30_000;
    private String scheduleId = "schedule-9";
    private String executorApp = "billing";
    private String routeStrategy = "ROUND_ROBIN";
    private String namespace = Namespaces.DEFAULT;

    private AJob() {}

    public static AJob aJob() {
        return new AJob();
    }

    public AJob withId(String jobId) {
        this.jobId = jobId;
        return this;
    }

    public AJob withKey(String jobKey) {
        this.jobKey = jobKey;
        return this;
    }

    public AJob withType(String jobType) {
        this.jobType = jobType;
        return this;
    }

    public AJob withParams(Map<String, Object> params) {
        this.params = params;
        return this;
    }

    public AJob withPriority(int priority) {
        this.priority = priority;
        return this;
    }

    public AJob withRunAt(Instant runAt) {
        this.runAt = runAt;
        return this;
    }

    public AJob withRetryPolicy(RetryPolicy retryPolicy) {
        this.retryPolicy = retryPolicy;
        return this;
    }

    public AJob withTimeoutMs(long timeoutMs) {
        this.timeoutMs = timeoutMs;
        return this;
    }

    public AJob withScheduleId(String scheduleId) {
        this.scheduleId = scheduleId;
        return this;
    }

    /** Bound to remote workers of {@code app}, routed by {@code strategy}; null, null runs it in-process. */
    public AJob withExecutor(String app, String strategy) {
        this.executorApp = app;
        this.routeStrategy = strategy;
        return this;
    }

    public AJob withNamespace(String namespace) {
        this.namespace = namespace;
        return this;
    }

    public String id() {
        return jobId;
    }

    public SubmitJob submit() {
        return new SubmitJob(
                jobId,
                jobKey,
                jobType,
                params,
                priority,
                runAt,
                retryPolicy,
                timeoutMs,
                scheduleId,
                executorApp,
                routeStrategy,
                namespace);
    }

    public JobCreated created() {
        return JobCreated.of(submit());
    }

    public JobClaimed claimed(int attempt) {
        return new JobClaimed(jobId, attempt, NODE, runAt.plusSeconds(30));
    }

    public JobStarted started(int attempt) {
        return new JobStarted(jobId, attempt, NODE, null, timeoutMs, retryPolicy);
    }

    public JobSucceeded succeeded(int attempt) {
        return new JobSucceeded(jobId, attempt, "ok", 3);
    }

    public JobFailed failed(int attempt) {
        return new JobFailed(jobId, attempt, "boom", 12);
    }

    public JobTimedOut timedOut(int attempt, TimeoutPhase phase) {
        return new JobTimedOut(jobId, attempt, phase);
    }

    public JobRetryScheduled retryScheduled(int afterAttempt) {
        return new JobRetryScheduled(jobId, afterAttempt, runAt.plusSeconds(1), false);
    }

    public JobCanceled canceled(JobStatus from) {
        return new JobCanceled(jobId, "stop", from);
    }

    /** The events that leave a fresh job in {@code status}, with one run started where the status needs a run. */
    public List<Object> historyUpTo(JobStatus status) {
        List<Object> events = new ArrayList<>(List.of(created()));
        switch (status) {
            case WAITING -> {}
            case CLAIMED -> events.add(claimed(1));
            case RUNNING -> events.addAll(List.of(claimed(1), started(1)));
            case SUCCEEDED -> events.addAll(List.of(claimed(1), started(1), succeeded(1)));
            case FAILED -> events.addAll(List.of(claimed(1), started(1), failed(1)));
            case TIMED_OUT -> events.addAll(List.of(claimed(1), started(1), timedOut(1, TimeoutPhase.RUN)));
            case RETRY_WAITING -> events.addAll(List.of(claimed(1), started(1), failed(1), retryScheduled(1)));
            case CANCELED -> events.add(canceled(JobStatus.WAITING));
        }
        return events;
    }
}
