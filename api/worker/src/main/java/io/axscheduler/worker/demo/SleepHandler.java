package io.axscheduler.worker.demo;

import io.axscheduler.api.spi.JobContext;
import io.axscheduler.api.spi.JobHandler;

/** {@code sleep}: waits {@code params.ms} milliseconds (at most an hour), stopping early when cancelled. */
public class SleepHandler implements JobHandler {

    static final long MAX_MS = 3_600_000;

    @Override
    public String jobType() {
        return "sleep";
    }

    @Override
    public String execute(JobContext context) throws Exception {
        long ms = context.longParam("ms", 1_000);
        if (ms < 0 || ms > MAX_MS) throw new IllegalArgumentException("params.ms must be between 0 and " + MAX_MS);
        if (context.awaitCancellation(ms)) throw new InterruptedException("cancelled after less than " + ms + " ms");
        return "slept " + ms + " ms";
    }
}
