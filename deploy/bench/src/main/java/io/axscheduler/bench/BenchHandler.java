package io.axscheduler.bench;

import io.axscheduler.api.spi.JobContext;
import io.axscheduler.api.spi.JobHandler;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Job type {@code bench}: records when each job's body first started (the figure the peers record too) and how often.
 * For W3 it also records every run of a schedule's job as (schedule, intended fire time, start), the intended time
 * read from the job key {@code schedule:<scheduleId>@<fire time>} the fire gave it: one record per run, as the peers'
 * {@code Fires} does, so a second job for one fire time and a second run of one job both show as duplicates.
 */
final class BenchHandler implements JobHandler {

    final Map<String, Long> firstStartMs = new ConcurrentHashMap<>();
    final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

    private volatile Map<String, Integer> scheduleIndex = Map.of();
    private AtomicIntegerArray fireSchedule = new AtomicIntegerArray(0);
    private AtomicLongArray fireIntendedMs = new AtomicLongArray(0);
    private AtomicLongArray fireStartMs = new AtomicLongArray(0);
    private final AtomicInteger fireCount = new AtomicInteger();
    /** BENCH_JOB_MS: how long each job's body takes (0: returns at once), to make more work due than the pool runs. */
    private final long bodyMs = Long.parseLong(System.getenv().getOrDefault("BENCH_JOB_MS", "0"));

    @Override
    public String jobType() {
        return "bench";
    }

    @Override
    public String execute(JobContext context) {
        long now = System.currentTimeMillis();
        if (!recordFire(context.idempotencyKey(), now)) { // W3 keeps only its compact records, as the peers do
            firstStartMs.putIfAbsent(context.jobId(), now);
            runs.computeIfAbsent(context.jobId(), id -> new AtomicInteger()).incrementAndGet();
        }
        if (bodyMs > 0) {
            try {
                Thread.sleep(bodyMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return null;
    }

    /** W3: schedule ids by their index, and room for {@code capacity} runs (beyond it runs are dropped and counted). */
    void recordFires(Map<String, Integer> scheduleIndex, int capacity) {
        fireSchedule = new AtomicIntegerArray(capacity);
        fireIntendedMs = new AtomicLongArray(capacity);
        fireStartMs = new AtomicLongArray(capacity);
        fireCount.set(0);
        this.scheduleIndex = scheduleIndex;
    }

    int fireRecords() {
        return fireCount.get();
    }

    int firesRecorded() {
        return Math.min(fireCount.get(), fireSchedule.length());
    }

    int fireSchedule(int k) {
        return fireSchedule.get(k);
    }

    long fireIntendedMs(int k) {
        return fireIntendedMs.get(k);
    }

    long fireStartMs(int k) {
        return fireStartMs.get(k);
    }

    /** True when the run was a W3 schedule's fire (recorded, or counted as dropped beyond the capacity). */
    private boolean recordFire(String jobKey, long now) {
        if (jobKey == null || !jobKey.startsWith("schedule:")) return false;
        int at = jobKey.lastIndexOf('@');
        Integer index = at < 0 ? null : scheduleIndex.get(jobKey.substring("schedule:".length(), at));
        if (index == null) return false; // a manual fire (":manual") or a schedule of no workload
        long intended;
        try {
            intended = Instant.parse(jobKey.substring(at + 1)).toEpochMilli();
        } catch (DateTimeParseException e) {
            return false;
        }
        int k = fireCount.getAndIncrement();
        if (k >= fireSchedule.length()) return true;
        fireSchedule.set(k, index);
        fireIntendedMs.set(k, intended);
        fireStartMs.set(k, now);
        return true;
    }

    int duplicates() {
        return runs.values().stream().mapToInt(r -> Math.max(0, r.get() - 1)).sum();
    }

    void reset() {
        firstStartMs.clear();
        runs.clear();
    }
}
