package io.axscheduler.query.stats;

import java.util.List;

/**
 * The start-lag histogram's buckets (start minus due, in ms): bucket i holds lags up to {@link #UPPER_MS}[i], the last
 * one everything longer. A percentile read from it is the upper bound of the bucket it falls in, so it is never
 * smaller than the true value.
 */
public final class StartLagBuckets {

    static final long[] UPPER_MS = {
        1,
        2,
        5,
        10,
        20,
        50,
        100,
        200,
        500,
        1_000,
        2_000,
        5_000,
        10_000,
        30_000,
        60_000,
        300_000,
        3_600_000,
        Long.MAX_VALUE
    };

    private StartLagBuckets() {}

    public static int bucketOf(long lagMs) {
        long lag = Math.max(0, lagMs);
        for (int i = 0; i < UPPER_MS.length; i++) {
            if (lag <= UPPER_MS[i]) return i;
        }
        return UPPER_MS.length - 1;
    }

    /**
     * The upper bound of the bucket holding the {@code p}-th percentile of {@code counts} (indexed by bucket), or null
     * when there are no starts. The last bucket has no bound: it answers the bound below it, marked by the caller.
     */
    public static Long percentile(List<Long> counts, double p) {
        long total = counts.stream().mapToLong(Long::longValue).sum();
        if (total == 0) return null;
        long rank = (long) Math.ceil(total * p);
        long seen = 0;
        for (int i = 0; i < counts.size(); i++) {
            seen += counts.get(i);
            if (seen >= rank) return UPPER_MS[Math.min(i, UPPER_MS.length - 2)];
        }
        return UPPER_MS[UPPER_MS.length - 2];
    }

    public static int count() {
        return UPPER_MS.length;
    }
}
