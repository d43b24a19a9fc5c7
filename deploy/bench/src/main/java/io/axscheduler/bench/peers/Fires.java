package io.axscheduler.bench.peers;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * W3: one record per run of a recurring schedule — (schedule, intended fire time, start) — so that a second run for
 * one slot shows as a duplicate. Schedule i's slots are {@code phase[i] + n × period}.
 */
final class Fires {

    private static volatile Fires current = new Fires(new long[0], 1, 0);

    private final long[] phaseMs;
    private final long periodMs;
    private final AtomicIntegerArray schedule;
    private final AtomicLongArray intendedMs;
    private final AtomicLongArray startMicros;
    private final AtomicInteger count = new AtomicInteger();

    /** Room for {@code capacity} runs, sized for the whole run; runs beyond it are dropped and counted. */
    Fires(long[] phaseMs, long periodMs, int capacity) {
        this.phaseMs = phaseMs;
        this.periodMs = periodMs;
        schedule = new AtomicIntegerArray(capacity);
        intendedMs = new AtomicLongArray(capacity);
        startMicros = new AtomicLongArray(capacity);
    }

    /** A fresh recorder, the one the schedules' job bodies report to from now on. */
    static Fires recordFires(long[] phaseMs, long periodMs, int capacity) {
        current = new Fires(phaseMs, periodMs, capacity);
        return current;
    }

    /**
     * The first thing every W3 job body does. {@code scheduledMs}: the library's own fire time for this run, or 0
     * where it exposes none (JobRunr), and then the start is used; either is snapped to the nearest slot of the
     * schedule, so lag is measured against the schedule's grid, not against the library's idea of it.
     */
    static void fired(int id, long scheduledMs) {
        current.fired(id, scheduledMs, Latencies.nowMicros());
    }

    void fired(int id, long scheduledMs, long startMicros) {
        long hint = scheduledMs > 0 ? scheduledMs : startMicros / 1000;
        long slot = Math.round((hint - phaseMs[id]) / (double) periodMs);
        int k = count.getAndIncrement();
        if (k >= schedule.length()) return;
        schedule.set(k, id);
        intendedMs.set(k, phaseMs[id] + slot * periodMs);
        this.startMicros.set(k, startMicros);
    }

    int recorded() {
        return count.get();
    }

    /**
     * Over the slots in [fromMs, toMs): fires (runs), expected_fires, missed, duplicates, the lag of each slot's first
     * run (p50, p99, max, min) and early (slots first run before their time).
     */
    void put(long fromMs, long toMs, Map<String, Object> line) {
        long expected = 0;
        for (long phase : phaseMs) {
            long first = Math.max(0, Math.floorDiv(fromMs - phase + periodMs - 1, periodMs));
            long end = Math.max(0, Math.floorDiv(toMs - phase + periodMs - 1, periodMs));
            expected += Math.max(0, end - first);
        }
        Map<Long, Long> firstStart = new HashMap<>(); // (schedule, slot) -> earliest start
        int fires = 0, n = Math.min(count.get(), schedule.length());
        for (int k = 0; k < n; k++) {
            long t = intendedMs.get(k);
            if (t < fromMs || t >= toMs) continue;
            fires++;
            int id = schedule.get(k);
            long key = ((long) id << 32) | ((t - phaseMs[id]) / periodMs);
            firstStart.merge(key, startMicros.get(k), Math::min);
        }
        long[] lag = new long[firstStart.size()];
        int i = 0, early = 0;
        for (Map.Entry<Long, Long> e : firstStart.entrySet()) {
            int id = (int) (e.getKey() >>> 32);
            long slot = e.getKey() & 0xffffffffL;
            lag[i] = e.getValue() - (phaseMs[id] + slot * periodMs) * 1000;
            if (lag[i++] < 0) early++;
        }
        Arrays.sort(lag);
        line.put("fires", fires);
        line.put("expected_fires", expected);
        line.put("missed", expected - lag.length);
        line.put("duplicates", fires - lag.length);
        Latencies.put(line, lag);
        line.put("early", early);
        if (count.get() > n) line.put("dropped_records", count.get() - n);
    }
}
