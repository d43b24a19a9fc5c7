package io.axscheduler.api.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.axscheduler.api.spi.JobContext;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ScheduleJobKeysTest {

    private static final Instant FIRE = Instant.parse("2027-03-28T01:30:00.250Z");

    @Test
    void a_fired_jobs_key_says_its_schedule_and_fire_time() {
        String key = ScheduleJobKeys.of("0192-abc", FIRE, FireKind.SCHEDULED, "job-1");
        assertThat(ScheduleJobKeys.parse(key)).contains(new ScheduleJobKeys.Fire("0192-abc", FIRE, false));
        assertThat(ScheduleJobKeys.parse(ScheduleJobKeys.of("0192-abc", FIRE, FireKind.QUEUED, "job-1")))
                .contains(new ScheduleJobKeys.Fire("0192-abc", FIRE, false));
        assertThat(ScheduleJobKeys.parse(ScheduleJobKeys.of("0192-abc", FIRE, FireKind.MANUAL, "job-2")))
                .contains(new ScheduleJobKeys.Fire("0192-abc", FIRE, true));
    }

    @Test
    void any_other_key_names_no_fire() {
        assertThat(ScheduleJobKeys.parse(null)).isEmpty();
        assertThat(ScheduleJobKeys.parse("order-42-close")).isEmpty();
        assertThat(ScheduleJobKeys.parse("schedule:")).isEmpty();
        assertThat(ScheduleJobKeys.parse("schedule:abc@2027-03-28")).isEmpty();
        assertThat(ScheduleJobKeys.parse("schedule:abc@2027-03-28T01:30:00.250Z:other"))
                .isEmpty();
        assertThat(ScheduleJobKeys.parse("schedule:abc@not-a-time-at-all-00000000"))
                .isEmpty();
        assertThat(ScheduleJobKeys.parse("01a23379-9492-7c0a-8e8e-3a7a1b2c3d4e"))
                .isEmpty();
    }

    @Test
    void a_handler_reads_the_schedule_and_fire_time_from_its_context() {
        JobContext fired = context(ScheduleJobKeys.of("s-1", FIRE, FireKind.SCHEDULED, "job-1"));
        assertThat(fired.scheduleId()).contains("s-1");
        assertThat(fired.scheduledFireTime()).contains(FIRE);
        JobContext submitted = context("order-42-close");
        assertThat(submitted.scheduleId()).isEmpty();
        assertThat(submitted.scheduledFireTime()).isEqualTo(Optional.empty());
    }

    private static JobContext context(String key) {
        return new JobContext() {
            public String jobId() {
                return "job-1";
            }

            public String jobType() {
                return "noop";
            }

            public int attempt() {
                return 1;
            }

            public String idempotencyKey() {
                return key;
            }

            public Map<String, Object> params() {
                return Map.of();
            }

            public boolean isCancelled() {
                return false;
            }

            public boolean awaitCancellation(long millis) {
                return false;
            }
        };
    }
}
