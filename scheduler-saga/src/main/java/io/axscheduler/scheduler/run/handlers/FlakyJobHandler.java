package io.axscheduler.scheduler.run.handlers;

import io.axscheduler.api.spi.JobContext;
import io.axscheduler.api.spi.JobHandler;
import java.util.Map;

/** {@code flaky}: fails its first {@code params.failTimes} attempts, then succeeds — retries made visible. */
public class FlakyJobHandler implements JobHandler {

    @Override
    public String jobType() {
        return "flaky";
    }

    /** More failures than any job attempts (a retry policy allows at most 100 retries): one that never succeeds. */
    static final long MAX_FAIL_TIMES = 1_000;

    @Override
    public Map<String, String> paramProblems(Map<String, Object> params) {
        return WholeNumberParam.problems(params, "failTimes", MAX_FAIL_TIMES);
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
