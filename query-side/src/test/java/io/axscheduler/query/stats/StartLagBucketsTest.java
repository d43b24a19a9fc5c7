package io.axscheduler.query.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StartLagBucketsTest {

    private static List<Long> histogram(long... lags) {
        List<Long> counts = new ArrayList<>();
        for (int i = 0; i < StartLagBuckets.count(); i++) counts.add(0L);
        for (long lag : lags) {
            int b = StartLagBuckets.bucketOf(lag);
            counts.set(b, counts.get(b) + 1);
        }
        return counts;
    }

    @Test
    void a_lag_falls_in_the_first_bucket_whose_bound_holds_it_and_early_starts_count_as_none() {
        assertThat(StartLagBuckets.bucketOf(-20)).isZero();
        assertThat(StartLagBuckets.bucketOf(1)).isZero();
        assertThat(StartLagBuckets.bucketOf(2)).isEqualTo(1);
        assertThat(StartLagBuckets.bucketOf(3)).isEqualTo(2);
        assertThat(StartLagBuckets.bucketOf(Long.MAX_VALUE)).isEqualTo(StartLagBuckets.count() - 1);
    }

    @Test
    void a_percentile_is_the_bound_of_its_bucket_never_below_the_true_value() {
        long[] lags = new long[100];
        for (int i = 0; i < 99; i++) lags[i] = 3; // ≤ 5 ms
        lags[99] = 700; // ≤ 1,000 ms
        assertThat(StartLagBuckets.percentile(histogram(lags), 0.50)).isEqualTo(5);
        assertThat(StartLagBuckets.percentile(histogram(lags), 0.99)).isEqualTo(5);
        assertThat(StartLagBuckets.percentile(histogram(lags), 1.0)).isEqualTo(1_000);
        assertThat(StartLagBuckets.percentile(histogram(), 0.99)).isNull();
        // beyond the last bound: the last finite bound, which the page shows as "at least"
        assertThat(StartLagBuckets.percentile(histogram(10_000_000), 0.99)).isEqualTo(3_600_000);
    }
}
