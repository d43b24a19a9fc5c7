package io.axscheduler.api.job;

/** {@code worker} is the remote worker that ran the attempt, or {@code in-process}; null in events before it was kept. */
public record JobFailed(String jobId, int attempt, String error, long durationMs, String worker) {

    public JobFailed(String jobId, int attempt, String error, long durationMs) {
        this(jobId, attempt, error, durationMs, null);
    }
}
