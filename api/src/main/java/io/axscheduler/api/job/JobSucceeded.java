package io.axscheduler.api.job;

/** {@code worker} is the remote worker that ran the attempt, or {@code in-process}; null in events before it was kept. */
public record JobSucceeded(String jobId, int attempt, String result, long durationMs, String worker) {

    public JobSucceeded(String jobId, int attempt, String result, long durationMs) {
        this(jobId, attempt, result, durationMs, null);
    }
}
