package io.axscheduler.api.job;

/** Carries the timeout and retry policy so that the lifecycle saga, which starts here, can apply them. */
public record JobStarted(
        String jobId, int attempt, String node, String worker, long timeoutMs, RetryPolicy retryPolicy) {}
