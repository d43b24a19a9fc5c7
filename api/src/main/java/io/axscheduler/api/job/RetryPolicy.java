package io.axscheduler.api.job;

/** How often a failed or timed-out run is tried again, and how long to wait before each retry. */
public record RetryPolicy(int maxRetries, Backoff backoff) {

    public static final int DEFAULT_MAX_RETRIES = 3;
    public static final int MAX_RETRIES_LIMIT = 100;

    public static RetryPolicy defaults() {
        return new RetryPolicy(DEFAULT_MAX_RETRIES, Backoff.defaults());
    }

    public RetryPolicy {
        if (maxRetries < 0 || maxRetries > MAX_RETRIES_LIMIT) {
            throw new IllegalArgumentException("maxRetries must be between 0 and " + MAX_RETRIES_LIMIT);
        }
        backoff = backoff == null ? Backoff.defaults() : backoff;
    }

    /** A run numbered {@code attempt} (1 for the first) that failed may be retried when retries are left. */
    public boolean allowsRetryAfter(int attempt) {
        return attempt <= maxRetries;
    }

    public long delayAfterAttempt(int attempt) {
        return backoff.delayBeforeRetry(attempt);
    }
}
