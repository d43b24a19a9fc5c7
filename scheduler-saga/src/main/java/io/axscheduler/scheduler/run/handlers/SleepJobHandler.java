package io.axscheduler.scheduler.run.handlers;

import io.axscheduler.api.spi.JobContext;
import io.axscheduler.api.spi.JobHandler;
import java.util.Map;

/** {@code sleep}: waits {@code params.ms} milliseconds (bounded), stopping early when cancelled. */
public class SleepJobHandler implements JobHandler {

    private final long maxSleepMs;

    public SleepJobHandler(long maxSleepMs) {
        this.maxSleepMs = maxSleepMs;
    }

    @Override
    public String jobType() {
        return "sleep";
    }

    @Override
    public Map<String, String> paramProblems(Map<String, Object> params) {
        return WholeNumberParam.problems(params, "ms", maxSleepMs);
    }

    @Override
    public String execute(JobContext context) throws Exception {
        long ms = context.longParam("ms", 1_000);
        if (ms < 0 || ms > maxSleepMs) {
            throw new IllegalArgumentException("params.ms must be between 0 and " + maxSleepMs);
        }
        if (context.awaitCancellation(ms)) {
            throw new InterruptedException("cancelled after less than " + ms + " ms");
        }
        return "slept " + ms + " ms";
    }
}
