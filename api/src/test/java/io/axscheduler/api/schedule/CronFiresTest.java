package io.axscheduler.api.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Cron expressions that never fire, or crash on some month, are refused up front with the expression as the field. */
class CronFiresTest {

    private static final Instant NOW = Instant.parse("2026-12-01T21:00:00Z");

    @ParameterizedTest
    @ValueSource(strings = {"0 0 0 31W * ?", "0 0 0 30W * ?", "0 0 0 ? * 1#6", "0 0 0 30 2 ?", "0 0 0 ? * 2#5"})
    void an_expression_that_never_fires_or_cannot_be_computed_is_refused(String expression) {
        Trigger trigger = Trigger.cron(expression, "UTC", CronDialect.QUARTZ);
        InvalidTriggerException refused =
                catchThrowableOfType(InvalidTriggerException.class, () -> FireTimes.requireFires(trigger, NOW));
        if (expression.endsWith("2#5")) {
            // a fifth Monday exists in some months: it fires, and is accepted
            assertThat(refused).isNull();
            return;
        }
        assertThat(refused).as(expression).isNotNull();
        assertThat(refused.field()).isEqualTo("expression");
        assertThat(refused.reason()).isNotBlank();
    }

    @Test
    void a_month_that_cannot_be_computed_is_found_however_often_the_expression_fires() {
        // 1,440 fires on 31 December before the walk would reach February
        Trigger everyMinute = Trigger.cron("0 * * 31W * ?", "Europe/Berlin", CronDialect.QUARTZ);
        InvalidTriggerException refused =
                catchThrowableOfType(InvalidTriggerException.class, () -> FireTimes.requireFires(everyMinute, NOW));
        assertThat(refused).isNotNull();
        assertThat(refused.reason()).contains("FEBRUARY");
    }

    @Test
    void a_february_29_of_a_common_year_is_found_from_a_leap_year() {
        // from March 2027 the next February (2028) has a 29th; 2029's does not
        InvalidTriggerException refused = catchThrowableOfType(
                InvalidTriggerException.class,
                () -> FireTimes.requireFires(
                        Trigger.cron("0 0 0 29W * ?", "UTC", CronDialect.QUARTZ),
                        Instant.parse("2027-03-15T00:00:00Z")));
        assertThat(refused).isNotNull();
    }

    @Test
    void ordinary_expressions_pass() {
        for (String e :
                new String[] {"0 0 0 15W * ?", "0 0 0 ? * 2#1", "0 0 0 L * ?", "0 */5 * * * ?", "0 0 0 29 2 ?"}) {
            assertThatCode(() -> FireTimes.requireFires(Trigger.cron(e, "UTC", CronDialect.QUARTZ), NOW))
                    .as(e)
                    .doesNotThrowAnyException();
        }
    }
}
