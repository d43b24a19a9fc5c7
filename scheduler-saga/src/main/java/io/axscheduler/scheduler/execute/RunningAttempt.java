package io.axscheduler.scheduler.execute;

import io.axscheduler.api.spi.JobContext;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** One attempt running on this node, as its handler sees it, with the signal that asks it to stop. */
final class RunningAttempt implements JobContext {

    private final ClaimedJob job;
    private final Map<String, Object> params;
    private final CountDownLatch cancelled = new CountDownLatch(1);
    private Thread runner;

    RunningAttempt(ClaimedJob job, Map<String, Object> params) {
        this.job = job;
        this.params = params;
    }

    void cancel() {
        cancelled.countDown();
    }

    synchronized void runOn(Thread thread) {
        runner = thread;
    }

    /** Interrupts the handler only while it runs: an interrupt that lands on the report afterwards would lose it. */
    synchronized void interruptHandler() {
        if (runner != null) runner.interrupt();
    }

    /** The handler returned: no interrupt reaches this thread from here on, and one that came late is cleared. */
    synchronized void handlerReturned() {
        runner = null;
        Thread.interrupted();
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
        return job.jobKey() != null ? job.jobKey() : job.jobId();
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
