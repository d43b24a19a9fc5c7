package io.axscheduler.scheduler.run.handlers;

import io.axscheduler.api.spi.JobContext;
import io.axscheduler.api.spi.JobHandler;

/** {@code flaky}: fails its first {@code params.failTimes} attempts, then succeeds — retries made visible. */
public class FlakyJobHandler implements JobHandler {

    @Override
    public String jobType() {
        return "flaky";
    }

    @Override
    public String execute(JobContext context) {
        long failTimes = context.longParam("failTimes", 1);
        if (context.attempt() <= failTimes) {
            throw new IllegalStateException("planned failure " + context.attempt() + " of " + failTimes);
        }
        return "succeeded on attempt " + context.attempt();
    }
}
