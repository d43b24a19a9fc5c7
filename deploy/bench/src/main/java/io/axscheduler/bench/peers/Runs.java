package io.axscheduler.bench.peers;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * W1 and W2: for each job id its due time, how often its body ran and when it first started. The libraries
 * instantiate the job bodies themselves, so the bodies reach the run's recorder through {@link #ran(int)}.
 */
final class Runs {

    private static volatile Runs current = new Runs(0);

    private final AtomicIntegerArray runs;
    private final AtomicLongArray dueMicros;
    private final AtomicLongArray lagMicros;
    private final AtomicInteger started = new AtomicInteger();
    private final AtomicLong lastStartMicros = new AtomicLong();

    Runs(int jobs) {
        runs = new AtomicIntegerArray(jobs);
        dueMicros = new AtomicLongArray(jobs);
        lagMicros = new AtomicLongArray(jobs);
    }

    /** A fresh recorder for job ids 0 … jobs − 1, the one the job bodies report to from now on. */
    static Runs recordJobs(int jobs) {
        current = new Runs(jobs);
        return current;
    }

    /** The first thing every W1 and W2 job body does: its start is the figure. */
    static void ran(int id) {
        current.ran(id, Latencies.nowMicros());
    }

    void due(int id, long epochMicros) {
        dueMicros.set(id, epochMicros);
    }

    void ran(int id, long epochMicros) {
        if (runs.incrementAndGet(id) == 1) {
            lagMicros.set(id, epochMicros - dueMicros.get(id));
            // before the count: whoever sees every job started also sees the last start
            lastStartMicros.accumulateAndGet(epochMicros, Math::max);
            started.incrementAndGet();
        }
    }

    /** Distinct jobs started so far. */
    int started() {
        return started.get();
    }

    long lastStartMicros() {
        return lastStartMicros.get();
    }

    /** Latency over each job's first start, then exactly_once, missing, duplicates (runs beyond a job's first), early. */
    void put(Map<String, Object> line) {
        int n = runs.length(), missing = 0, duplicates = 0, k = 0, early = 0;
        long[] lag = new long[n];
        for (int id = 0; id < n; id++) {
            int count = runs.get(id);
            if (count == 0) {
                missing++;
                continue;
            }
            duplicates += count - 1;
            lag[k] = lagMicros.get(id);
            if (lag[k++] < 0) early++;
        }
        lag = Arrays.copyOf(lag, k);
        Arrays.sort(lag);
        Latencies.put(line, lag);
        line.put("exactly_once", missing == 0 && duplicates == 0);
        line.put("missing", missing);
        line.put("duplicates", duplicates);
        line.put("early", early);
    }
}
