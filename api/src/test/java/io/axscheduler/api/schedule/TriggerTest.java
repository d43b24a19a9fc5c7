package io.axscheduler.api.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class TriggerTest {

    private static void refused(Runnable build, String field) {
        assertThatThrownBy(build::run)
                .isInstanceOf(InvalidTriggerException.class)
                .matches(e -> ((InvalidTriggerException) e).field().equals(field), "names field " + field);
    }

    @Test
    void a_step_of_zero_is_refused_as_a_step() {
        for (String expression : new String[] {"*/0 * * * * ?", "0 0/0 * * * ?"}) {
            assertThatThrownBy(() -> Trigger.cron(expression, "UTC", null))
                    .isInstanceOf(InvalidTriggerException.class)
                    .hasMessageContaining("a step of /0 never moves on")
                    .hasMessageNotContaining("not in range");
        }
    }

    @Test
    void a_nickname_is_refused_with_the_fields_to_write() {
        assertThatThrownBy(() -> Trigger.cron("@daily", "UTC", null))
                .isInstanceOf(InvalidTriggerException.class)
                .hasMessageContaining("nicknames such as @daily are not taken; write the fields: 0 0 0 * * ?")
                .hasMessageContaining("0 0 * * * with \"dialect\":\"unix\"")
                .hasMessageNotContaining("Nicknames not supported");
        assertThatThrownBy(() -> Trigger.cron("@hourly", "UTC", CronDialect.UNIX))
                .hasMessageEndingWith("write the fields: 0 * * * *");
        assertThatThrownBy(() -> Trigger.cron("@reboot", "UTC", CronDialect.UNIX))
                .hasMessageContaining("@reboot is none of @yearly, @annually, @monthly, @weekly, @daily, @midnight or");
    }

    @Test
    void bad_cron_unknown_zone_negative_intervals_and_missing_fields_name_their_field() {
        refused(() -> Trigger.cron("61 * * * * ?", "UTC", null), "expression");
        refused(() -> Trigger.cron("0 * * * * *", "UTC", null), "expression");
        refused(() -> Trigger.cron("0 * * * * ?", "Mars/Olympus", null), "timezone");
        refused(() -> Trigger.fixedRate(-1), "intervalMs");
        refused(() -> Trigger.fixedDelay(0), "delayMs");
        refused(() -> new Trigger(TriggerType.ONCE, null, null, null, null, null, null, null), "at");
        refused(() -> new Trigger(null, null, null, null, null, null, null, null), "type");
        refused(
                () -> new Trigger(TriggerType.FIXED_RATE, "* * * * * ?", null, null, 1000L, null, null, null),
                "expression");
        refused(
                () -> new Trigger(TriggerType.ONCE, null, null, CronDialect.UNIX, null, null, Instant.EPOCH, null),
                "dialect");
    }

    @Test
    void start_at_belongs_to_fixed_rate_and_to_a_representable_time() {
        refused(
                () -> new Trigger(TriggerType.FIXED_DELAY, null, null, null, null, 1000L, null, Instant.EPOCH),
                "startAt");
        refused(
                () -> new Trigger(TriggerType.CRON, "0 * * * * ?", null, null, null, null, null, Instant.EPOCH),
                "startAt");
        refused(() -> Trigger.fixedRate(1000, Instant.EPOCH.minusMillis(1)), "startAt");
        refused(() -> Trigger.fixedRate(1000, Instant.parse("+10000-01-01T00:00:00Z")), "startAt");
        assertThat(Trigger.fixedRate(1000, Instant.EPOCH).startAt()).isEqualTo(Instant.EPOCH);
    }

    @Test
    void a_trigger_written_before_start_at_existed_reads_as_one_without_phase_and_a_phased_one_round_trips()
            throws Exception {
        ObjectMapper json = JsonMapper.builder().addModule(new JavaTimeModule()).build();
        Trigger old =
                json.readValue("{\"type\":\"fixedRate\",\"timezone\":\"UTC\",\"intervalMs\":60000}", Trigger.class);
        assertThat(old).isEqualTo(Trigger.fixedRate(60_000));
        assertThat(json.writeValueAsString(old)).doesNotContain("startAt");
        Trigger phased = Trigger.fixedRate(60_000, Instant.parse("2026-05-01T10:00:00.125Z"));
        assertThat(json.readValue(json.writeValueAsString(phased), Trigger.class))
                .isEqualTo(phased);
    }
}
