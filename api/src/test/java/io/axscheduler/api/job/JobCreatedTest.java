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

    @Test
    void the_schedulers_own_jobs_are_ax_systems_also_when_stored_in_default() throws Exception {
        // as a delivery of an alert made before ax-system existed is stored, read back through Jackson
        com.fasterxml.jackson.databind.ObjectMapper json =
                new com.fasterxml.jackson.databind.ObjectMapper().findAndRegisterModules();
        JobCreated stored = json.readValue(
                "{\"jobId\":\"d-1\",\"jobKey\":\"alert:a:FIRING:hook\",\"jobType\":\"ax-alert\",\"params\":{},"
                        + "\"priority\":0,\"runAt\":\"2026-12-01T00:00:00Z\",\"timeoutMs\":1000,\"namespace\":\"default\"}",
                JobCreated.class);
        assertThat(stored.namespace()).isEqualTo("ax-system");
        JobCreated older = json.readValue(
                "{\"jobId\":\"d-2\",\"jobType\":\"ax-alert\",\"runAt\":\"2026-12-01T00:00:00Z\"}", JobCreated.class);
        assertThat(older.namespace()).isEqualTo("ax-system");
        JobCreated teams = json.readValue(
                "{\"jobId\":\"j-1\",\"jobType\":\"noop\",\"runAt\":\"2026-12-01T00:00:00Z\"}", JobCreated.class);
        assertThat(teams.namespace()).isEqualTo("default");
    }
}
