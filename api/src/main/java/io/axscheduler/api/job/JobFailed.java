package io.axscheduler.api.job;

public record JobFailed(String jobId, int attempt, String error, long durationMs) {
}
