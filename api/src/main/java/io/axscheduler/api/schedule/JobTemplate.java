package io.axscheduler.api.schedule;

import io.axscheduler.api.job.RetryPolicy;
import io.axscheduler.api.job.SubmitJob;
import java.time.Instant;
import java.util.Map;

/** The job each fire of a schedule submits: a job request without key, due time or schedule, which the fire supplies. */
public record JobTemplate(
        String jobType,
        Map<String, Object> params,
        int priority,
        RetryPolicy retryPolicy,
        long timeoutMs,
        String executorApp,
        String routeStrategy,
        String namespace) {

    /** Without a namespace: the {@code default} one (templates stored before namespaces existed read so too). */
    public JobTemplate(
            String jobType,
            Map<String, Object> params,
            int priority,
            RetryPolicy retryPolicy,
            long timeoutMs,
            String executorApp,
            String routeStrategy) {
        this(jobType, params, priority, retryPolicy, timeoutMs, executorApp, routeStrategy, null);
    }

    /** The same template in {@code otherNamespace}: a schedule's jobs live in the schedule's namespace. */
    public JobTemplate inNamespace(String otherNamespace) {
        return new JobTemplate(
                jobType, params, priority, retryPolicy, timeoutMs, executorApp, routeStrategy, otherNamespace);
    }

    public JobTemplate {
        namespace = io.axscheduler.api.Namespaces.orDefault(namespace);
        if (jobType == null || jobType.isBlank()) throw new IllegalArgumentException("jobType is required");
        if (timeoutMs < 1) throw new IllegalArgumentException("timeoutMs must be positive");
        params = params == null ? Map.of() : params;
        retryPolicy = retryPolicy == null ? RetryPolicy.defaults() : retryPolicy;
    }

    /** The job of one fire: due at the fire time, keyed by (schedule, fire time) so a fire can make one job only. */
    public SubmitJob toSubmitJob(String jobId, String scheduleId, Instant fireTime, FireKind kind) {
        return new SubmitJob(
                jobId,
                ScheduleJobKeys.of(scheduleId, fireTime, kind, jobId),
                jobType,
                params,
                priority,
                fireTime,
                retryPolicy,
                timeoutMs,
                scheduleId,
                executorApp,
                routeStrategy,
                namespace);
    }
}
