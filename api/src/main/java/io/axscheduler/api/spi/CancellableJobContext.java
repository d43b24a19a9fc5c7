package io.axscheduler.api.spi;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A {@link JobContext} with fixed identity and params and a one-way cancel signal: the attempt as an in-process
 * node, a remote worker or a test hands it to a handler. Subclasses add what their runner needs.
 */
public class CancellableJobContext implements JobContext {

    private final String jobId;
    private final String jobType;
    private final int attempt;
    private final String idempotencyKey;
    private final Map<String, Object> params;
    private final CountDownLatch cancelled = new CountDownLatch(1);

    public CancellableJobContext(
            String jobId, String jobType, int attempt, String idempotencyKey, Map<String, Object> params) {
        this.jobId = jobId;
        this.jobType = jobType;
        this.attempt = attempt;
        this.idempotencyKey = idempotencyKey;
        this.params = params;
    }

    /** Asks the handler to stop; it sees {@link #isCancelled()} turn true and {@link #awaitCancellation} return. */
    public void cancel() {
        cancelled.countDown();
    }

    @Override
    public String jobId() {
        return jobId;
    }

    @Override
    public String jobType() {
        return jobType;
    }

    @Override
    public int attempt() {
        return attempt;
    }

    @Override
    public String idempotencyKey() {
        return idempotencyKey;
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
