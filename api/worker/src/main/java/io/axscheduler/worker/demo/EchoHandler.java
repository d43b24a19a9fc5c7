package io.axscheduler.worker.demo;

import io.axscheduler.api.spi.JobContext;
import io.axscheduler.api.spi.JobHandler;

/** {@code echo}: succeeds at once with its params (and shard, when broadcast) as the result. */
public class EchoHandler implements JobHandler {

    @Override
    public String jobType() {
        return "echo";
    }

    @Override
    public String execute(JobContext context) {
        return "echo " + new java.util.TreeMap<>(context.params());
    }
}
