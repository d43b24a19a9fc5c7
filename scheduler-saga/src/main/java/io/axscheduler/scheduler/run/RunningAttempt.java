package io.axscheduler.scheduler.run;

import io.axscheduler.api.spi.CancellableJobContext;
import io.axscheduler.scheduler.ClaimedJob;
import java.util.Map;

/** One attempt running on this node, as its handler sees it, and the thread it runs on (for a shutdown interrupt). */
final class RunningAttempt extends CancellableJobContext {

    private Thread runner;

    RunningAttempt(ClaimedJob job, Map<String, Object> params) {
        super(job.jobId(), job.jobType(), job.attempt(), job.jobKey() != null ? job.jobKey() : job.jobId(), params);
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
}
