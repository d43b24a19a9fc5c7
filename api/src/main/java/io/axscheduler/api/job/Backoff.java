package io.axscheduler.api.job;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The wait before a retry: exponential ({@code initialMs × multiplier^(n-1)}, capped at {@code maxMs}) or an explicit
 * list of delays whose last one repeats. Exactly one of the two shapes is set.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Backoff(Long initialMs, Double multiplier, Long maxMs, List<Long> delaysMs) {

    public static final long DEFAULT_INITIAL_MS = 1_000;
    public static final double DEFAULT_MULTIPLIER = 2.0;
    public static final long DEFAULT_MAX_MS = 300_000;
    public static final int MAX_DELAYS = 100;

    public static Backoff exponential(long initialMs, double multiplier, long maxMs) {
        return new Backoff(initialMs, multiplier, maxMs, null);
    }

    public static Backoff delays(List<Long> delaysMs) {
        return new Backoff(null, null, null, delaysMs);
    }

    public static Backoff defaults() {
        return exponential(DEFAULT_INITIAL_MS, DEFAULT_MULTIPLIER, DEFAULT_MAX_MS);
    }

    public Backoff {
        if (delaysMs != null) {
            if (initialMs != null || multiplier != null || maxMs != null) {
                throw new IllegalArgumentException("give either delaysMs or initialMs/multiplier/maxMs, not both");
            }
            if (delaysMs.isEmpty() || delaysMs.size() > MAX_DELAYS) {
                throw new IllegalArgumentException("delaysMs must hold 1 to " + MAX_DELAYS + " delays");
            }
            if (delaysMs.stream().anyMatch(d -> d == null || d < 0)) {
                throw new IllegalArgumentException("delaysMs must not hold negative delays");
            }
            delaysMs = List.copyOf(delaysMs);
        } else {
            initialMs = initialMs == null ? DEFAULT_INITIAL_MS : initialMs;
            multiplier = multiplier == null ? DEFAULT_MULTIPLIER : multiplier;
            maxMs = maxMs == null ? Math.max(DEFAULT_MAX_MS, initialMs) : maxMs;
            if (initialMs < 0) throw new IllegalArgumentException("initialMs must not be negative");
            if (!(multiplier >= 1.0 && multiplier <= 100.0))
                throw new IllegalArgumentException("multiplier must be between 1 and 100");
            if (maxMs < initialMs) throw new IllegalArgumentException("maxMs must be at least initialMs");
        }
    }

    /** The wait before retry number {@code retry} (1 for the first retry). */
    public long delayBeforeRetry(int retry) {
        if (retry < 1) throw new IllegalArgumentException("retry numbers start at 1");
        if (delaysMs != null) {
            return delaysMs.get(Math.min(retry, delaysMs.size()) - 1);
        }
        double delay = initialMs * Math.pow(multiplier, retry - 1);
        return (long) Math.min(delay, maxMs);
    }
}
