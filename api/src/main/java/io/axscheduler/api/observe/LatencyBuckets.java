package io.axscheduler.api.observe;

import java.time.Duration;

/**
 * The histogram buckets of every ax latency metric, from 5 ms to an hour: the same fixed edges on every node (so
 * Grafana's histogram_quantile sums them across nodes), few enough to keep the series count low.
 */
public final class LatencyBuckets {

    private LatencyBuckets() {}

    public static Duration[] edges() {
        long[] ms = {5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000, 300_000, 3_600_000};
        Duration[] edges = new Duration[ms.length];
        for (int i = 0; i < ms.length; i++) edges[i] = Duration.ofMillis(ms[i]);
        return edges;
    }
}
