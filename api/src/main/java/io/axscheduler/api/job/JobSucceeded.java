package io.axscheduler.api.job;

public record JobSucceeded(String jobId, int attempt, String result, long durationMs) {
}
