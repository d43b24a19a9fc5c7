package io.axscheduler.api.schedule;

import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TriggerTest {

    private static void refused(Runnable build, String field) {
        assertThatThrownBy(build::run).isInstanceOf(InvalidTriggerException.class)
                .matches(e -> ((InvalidTriggerException) e).field().equals(field), "names field " + field);
    }

    @Test
    void bad_cron_unknown_zone_negative_intervals_and_missing_fields_name_their_field() {
        refused(() -> Trigger.cron("61 * * * * ?", "UTC", null), "expression");
        refused(() -> Trigger.cron("0 * * * * *", "UTC", null), "expression");
        refused(() -> Trigger.cron("0 * * * * ?", "Mars/Olympus", null), "timezone");
        refused(() -> Trigger.fixedRate(-1), "intervalMs");
        refused(() -> Trigger.fixedDelay(0), "delayMs");
        refused(() -> new Trigger(TriggerType.ONCE, null, null, null, null, null, null), "at");
        refused(() -> new Trigger(null, null, null, null, null, null, null), "type");
        refused(() -> new Trigger(TriggerType.FIXED_RATE, "* * * * * ?", null, null, 1000L, null, null), "expression");
        refused(() -> new Trigger(TriggerType.ONCE, null, null, CronDialect.UNIX, null, null, Instant.EPOCH), "dialect");
    }
}
