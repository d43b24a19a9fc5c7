package io.axscheduler.query.job;

import io.axscheduler.api.Metadata;
import io.axscheduler.api.TextLimit;
import io.axscheduler.api.job.JobCanceled;
import io.axscheduler.api.job.JobClaimed;
import io.axscheduler.api.job.JobCreated;
import io.axscheduler.api.job.JobFailed;
import io.axscheduler.api.job.JobHandedBack;
import io.axscheduler.api.job.JobRetryScheduled;
import io.axscheduler.api.job.JobStarted;
import io.axscheduler.api.job.JobStatus;
import io.axscheduler.api.job.JobSucceeded;
import io.axscheduler.api.job.JobTimedOut;
import io.axscheduler.api.job.TimeoutPhase;
import io.axscheduler.api.query.JobView;
import java.time.Instant;
import java.util.List;

/**
 * A job's events folded into the view {@code GET /api/v1/jobs/{id}} shows, with the meanings {@link JobQueueProjection}
 * writes to job_queue: the history endpoint answers "what did the job look like at T" with it, from the event store
 * alone, so the answer does not depend on the read model being intact.
 */
public final class JobStateFold {

    private JobStateFold() {}

    /**
     * The text the projection, the fold and the explain record when a run outlives its timeout, or is given up
     * because its worker left ({@code reason}, null for a deadline).
     */
    /**
     * The error of a job canceled by {@code actor}, or null: the scheduler cancels a job only to give it up (no one
     * could take it within {@code no-worker-timeout}), which is the job's error, where an operator's cancel is a
     * decision and leaves {@code lastError} as it was. The projections and the fold ask here.
     */
    public static String givenUpError(JobCanceled event, String actor) {
        return Metadata.SCHEDULER.equals(actor) ? "given up by the scheduler: " + event.reason() : null;
    }

    public static String runTimeoutError(JobTimedOut event) {
        String error = "attempt " + event.attempt() + " timed out";
        return event.reason() == null ? error : error + ": " + event.reason();
    }

    /** Folds a job's events, oldest first; the first must be its {@link JobCreated}. */
    public static JobView fold(List<TimedEvent> events) {
        if (events.isEmpty() || !(events.get(0).payload() instanceof JobCreated created)) {
            throw new IllegalArgumentException("a job's history starts with JobCreated");
        }
        State state = new State(created, events.get(0).timestamp());
        for (TimedEvent event : events.subList(1, events.size())) {
            state.apply(event.payload(), event.timestamp(), event.actor());
        }
        return state.toView();
    }

    /** What the events after {@link JobCreated} change; the rest of the view is the job's creation. */
    private static final class State {
        private final JobCreated created;
        private final Instant createdAt;
        private JobStatus status = JobStatus.WAITING;
        private Instant runAt;
        private int attempt;
        private String node;
        private String worker;
        private Instant updatedAt;
        private String lastError;
        private String result;

        State(JobCreated created, Instant at) {
            this.created = created;
            runAt = created.runAt();
            createdAt = at;
            updatedAt = at;
        }

        // Events added to the api later are skipped here, as the projection skips events it has no handler for,
        // so the two keep agreeing.
        void apply(Object payload, Instant at, String actor) {
            JobStatus after = JobStatus.after(payload);
            if (after == null || payload instanceof JobCreated) return;
            status = after;
            if (payload instanceof JobClaimed e) {
                node = e.node();
            } else if (payload instanceof JobStarted e) {
                attempt = e.attempt();
                node = e.node();
                worker = e.worker();
            } else if (payload instanceof JobSucceeded e) {
                result = TextLimit.truncate(e.result());
            } else if (payload instanceof JobFailed e) {
                lastError = TextLimit.truncate(e.error());
            } else if (payload instanceof JobTimedOut e && e.phase() == TimeoutPhase.CLAIM
                    || payload instanceof JobHandedBack) {
                node = null;
            } else if (payload instanceof JobTimedOut e) {
                lastError = TextLimit.truncate(runTimeoutError(e));
            } else if (payload instanceof JobRetryScheduled e) {
                runAt = e.runAt();
            } else if (payload instanceof JobCanceled e && givenUpError(e, actor) != null) {
                lastError = TextLimit.truncate(givenUpError(e, actor));
            }
            updatedAt = at;
        }

        JobView toView() {
            return new JobView(
                    created.jobId(),
                    created.jobKey(),
                    created.jobType(),
                    status,
                    created.priority(),
                    runAt,
                    attempt,
                    created.retryPolicy().maxRetries(),
                    node,
                    worker,
                    createdAt,
                    updatedAt,
                    lastError,
                    result,
                    created.scheduleId(),
                    created.namespace());
        }
    }
}
