package io.axscheduler.scheduler.fire;

import io.axscheduler.api.job.JobStatus;

/**
 * A schedule's last job as job_queue shows it. It is still going while it waits, runs, or has failed with a retry to
 * come (the lifecycle saga schedules the retry a moment after the failure, so FAILED alone does not mean ended).
 * The same test tells which jobs the retention may delete.
 */
public record LastJob(String jobId, JobStatus status, int attempt, int maxRetries) {

    /** The SQL twin of {@link #ended()}, over job_queue aliased {@code j}. */
    public static final String ENDED_SQL =
            "(j.status IN ('SUCCEEDED', 'CANCELED') OR (j.status IN ('FAILED', 'TIMED_OUT') AND j.attempt > j.max_retries))";

    boolean ended() {
        return status == JobStatus.SUCCEEDED
                || status == JobStatus.CANCELED
                || ((status == JobStatus.FAILED || status == JobStatus.TIMED_OUT) && attempt > maxRetries);
    }
}
