package io.axscheduler.deploy.bench;

import io.axscheduler.api.spi.JobContext;
import io.axscheduler.api.spi.JobHandler;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Job type {@code bench}: records when each job's body first started (the figure the peers record too) and how often. */
final class BenchHandler implements JobHandler {

    final Map<String, Long> firstStartMs = new ConcurrentHashMap<>();
    final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

    @Override
    public String jobType() {
        return "bench";
    }

    @Override
    public String execute(JobContext context) {
        long now = System.currentTimeMillis();
        firstStartMs.putIfAbsent(context.jobId(), now);
        runs.computeIfAbsent(context.jobId(), id -> new AtomicInteger()).incrementAndGet();
        return null;
    }

    int duplicates() {
        return runs.values().stream().mapToInt(r -> Math.max(0, r.get() - 1)).sum();
    }

    void reset() {
        firstStartMs.clear();
        runs.clear();
    }
}
