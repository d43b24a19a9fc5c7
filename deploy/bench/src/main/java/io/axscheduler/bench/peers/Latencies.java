package io.axscheduler.bench.peers;

import java.time.Instant;
import java.util.Map;

/** Latency figures as the reference harness reports them: nearest-rank percentiles, in ms to 0.1 ms. */
final class Latencies {

    private Latencies() {}

    static long nowMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    /** Puts p50_ms, p99_ms, max_ms and min_ms of {@code sortedMicros}, or nulls when nothing ran. */
    static void put(Map<String, Object> line, long[] sortedMicros) {
        int n = sortedMicros.length;
        line.put("p50_ms", percentile(sortedMicros, 0.50));
        line.put("p99_ms", percentile(sortedMicros, 0.99));
        line.put("max_ms", n == 0 ? null : ms(sortedMicros[n - 1]));
        line.put("min_ms", n == 0 ? null : ms(sortedMicros[0]));
    }

    /** Nearest rank: the smallest value with at least {@code q} of all values at or below it. */
    static Double percentile(long[] sortedMicros, double q) {
        if (sortedMicros.length == 0) return null;
        int rank = (int) Math.ceil(q * sortedMicros.length);
        return ms(sortedMicros[Math.max(0, rank - 1)]);
    }

    static double ms(long micros) {
        return Math.round(micros / 100.0) / 10.0;
    }
}
