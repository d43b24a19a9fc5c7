package io.axscheduler.api.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobCreatedTest {

    @Test
    void a_created_job_carries_every_value_of_its_submit_under_the_same_name() throws Exception {
        SubmitJob submit = new SubmitJob(
                "job-1",
                "key-1",
                "noop",
                Map.of("orderNo", "42"),
                7,
                Instant.parse("2026-11-30T10:05:00.250Z"),
                new RetryPolicy(4, Backoff.exponential(500, 3.0, 9_000)),
                12_345,
                "schedule-9",
                "billing",
                "ROUND_ROBIN",
                "team-a");

        JobCreated created = JobCreated.of(submit);

        // by name, so a value put under another name or a field added to both but not copied is caught
        for (RecordComponent field : JobCreated.class.getRecordComponents()) {
            Object submitted = SubmitJob.class.getMethod(field.getName()).invoke(submit);
            assertThat(field.getAccessor().invoke(created))
                    .as(field.getName())
                    .isNotNull()
                    .isEqualTo(submitted);
        }
    }
}
