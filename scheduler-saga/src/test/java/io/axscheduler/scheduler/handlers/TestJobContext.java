package io.axscheduler.scheduler.handlers;

import io.axscheduler.api.spi.JobContext;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** The attempt a handler runs in a test: fixed identity and params, and a cancel switch the test can flip. */
final class TestJobContext implements JobContext {

    private final String jobType;
    private final int attempt;
    private final Map<String, Object> params;
    private final CountDownLatch cancelled = new CountDownLatch(1);

    TestJobContext(String jobType, int attempt, Map<String, Object> params) {
        this.jobType = jobType;
        this.attempt = attempt;
        this.params = params;
    }

    void cancel() {
        cancelled.countDown();
    }

    @Override
    public String jobId() {
        return "job-1";
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
        return "order-42-close";
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
