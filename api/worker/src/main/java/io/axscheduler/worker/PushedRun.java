package io.axscheduler.worker;

import io.axscheduler.api.spi.JobContext;
import io.axscheduler.api.worker.JobCallback;
import io.axscheduler.api.worker.PushedJob;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** One pushed attempt (or shard) on this worker: what its handler sees, and what it ended with. */
final class PushedRun implements JobContext {

    private final PushedJob job;
    private final Map<String, Object> params;
    private final CountDownLatch cancelled = new CountDownLatch(1);
    private volatile JobCallback outcome;

    /** A broadcast's handlers find their shard in the params, as {@code shardIndex} and {@code shardTotal}. */
    PushedRun(PushedJob job) {
        this.job = job;
        Map<String, Object> all = job.params() == null ? new HashMap<>() : new HashMap<>(job.params());
        all.putIfAbsent("shardIndex", job.shardIndex());
        all.putIfAbsent("shardTotal", job.shardTotal());
        this.params = Map.copyOf(all);
    }

    PushedJob job() {
        return job;
    }

    void cancel() {
        cancelled.countDown();
    }

    void ended(JobCallback outcome) {
        this.outcome = outcome;
    }

    /** Null while it runs. */
    JobCallback outcome() {
        return outcome;
    }

    @Override
    public String jobId() {
        return job.jobId();
    }

    @Override
    public String jobType() {
        return job.jobType();
    }

    @Override
    public int attempt() {
        return job.attempt();
    }

    @Override
    public String idempotencyKey() {
        return job.idempotencyKey();
    }

    @Override
    public Map<String, Object> params() {
        return params;
    }

    @Override
    public boolean isCancelled() {
        return cancelled.getCount() == 0;
    }

    @Override
    public boolean awaitCancellation(long millis) throws InterruptedException {
        return cancelled.await(millis, TimeUnit.MILLISECONDS);
    }
}
