package io.axscheduler.scheduler.run.handlers;

import io.axscheduler.api.spi.JobContext;
import io.axscheduler.api.spi.JobHandler;

/** {@code noop}: succeeds at once. */
public class NoopJobHandler implements JobHandler {

    @Override
    public String jobType() {
        return "noop";
    }

    @Override
    public String execute(JobContext context) {
        return null;
    }
}
