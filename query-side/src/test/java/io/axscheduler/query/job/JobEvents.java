package io.axscheduler.query.job;

import io.axscheduler.api.job.Backoff;
import io.axscheduler.api.job.JobCreated;
import io.axscheduler.api.job.RetryPolicy;
import java.time.Instant;
import java.util.Map;

/** Test data: a job created with known values, varied only where a test cares. */
final class JobEvents {

    static final String JOB_ID = "job-1";
    static final Instant CREATED_AT = Instant.parse("2026-11-30T10:00:00.000Z");
    static final Instant RUN_AT = Instant.parse("2026-11-30T10:05:00.250Z");

    private JobEvents() {}

    static JobCreated created() {
        return created(Map.of("orderNo", "42"));
    }

    static JobCreated created(Map<String, Object> params) {
        return new JobCreated(
                JOB_ID,
                "order-42-close",
                "noop",
                params,
                7,
                RUN_AT,
                new RetryPolicy(3, Backoff.defaults()),
                30_000,
                "schedule-9",
                "billing",
                "ROUND_ROBIN");
    }

    static Instant at(int secondsAfterCreation) {
        return CREATED_AT.plusSeconds(secondsAfterCreation);
    }
}
