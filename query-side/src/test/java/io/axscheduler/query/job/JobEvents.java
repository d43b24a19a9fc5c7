package io.axscheduler.query.job;

import io.axscheduler.api.job.JobCreated;
import io.axscheduler.testing.AJob;
import java.time.Instant;
import java.util.Map;

/** Test data: a job created with known values, varied only where a test cares. */
final class JobEvents {

    static final String JOB_ID = "job-1";
    static final Instant CREATED_AT = AJob.CREATED_AT;
    static final Instant RUN_AT = Instant.parse("2026-11-30T10:05:00.250Z");

    private JobEvents() {}

    static JobCreated created() {
        return created(Map.of("orderNo", "42"));
    }

    static JobCreated created(Map<String, Object> params) {
        return AJob.aJob().withId(JOB_ID).withRunAt(RUN_AT).withParams(params).created();
    }

    static Instant at(int secondsAfterCreation) {
        return CREATED_AT.plusSeconds(secondsAfterCreation);
    }
}
