package io.axscheduler.api.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.axscheduler.api.job.RetryPolicy;
import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScheduleCreatedTest {

    @Test
    void a_created_schedule_carries_every_value_of_its_create_under_the_same_name_and_its_first_fire_time()
            throws Exception {
        CreateSchedule create = new CreateSchedule(
                "schedule-1",
                "close-orders",
                Trigger.fixedRate(60_000),
                new JobTemplate(
                        "noop",
                        Map.of("orderNo", "42"),
                        3,
                        RetryPolicy.defaults(),
                        30_000,
                        "billing",
                        "FIRST",
                        "team-a"),
                MisfirePolicy.SKIP,
                OverlapPolicy.QUEUE,
                Instant.parse("2026-11-30T10:00:00.000Z"),
                "team-a");
        Instant firstFire = Instant.parse("2026-11-30T10:01:00.000Z");

        ScheduleCreated created = ScheduleCreated.of(create, firstFire);

        assertThat(created.nextFireTime()).isEqualTo(firstFire);
        for (RecordComponent field : ScheduleCreated.class.getRecordComponents()) {
            if (field.getName().equals("nextFireTime")) continue;
            Object given = CreateSchedule.class.getMethod(field.getName()).invoke(create);
            assertThat(field.getAccessor().invoke(created))
                    .as(field.getName())
                    .isNotNull()
                    .isEqualTo(given);
        }
    }
}
