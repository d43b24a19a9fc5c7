package io.axscheduler.scheduler.run.handlers;

import io.axscheduler.api.spi.CancellableJobContext;
import java.util.Map;

/** The attempt a handler runs in a test: fixed identity and params, and a cancel switch the test can flip. */
final class TestJobContext extends CancellableJobContext {

    TestJobContext(String jobType, int attempt, Map<String, Object> params) {
        super("job-1", jobType, attempt, "order-42-close", params);
    }
}
