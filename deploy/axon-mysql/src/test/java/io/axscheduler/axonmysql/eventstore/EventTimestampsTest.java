package io.axscheduler.axonmysql.eventstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.SplittableRandom;
import org.axonframework.common.DateTimeUtils;
import org.junit.jupiter.api.Test;

/** The event store's timestamps read and written exactly as Axon's {@link DateTimeUtils} reads and writes them. */
class EventTimestampsTest {

    private static final long YEAR_0 = Instant.parse("0000-01-01T00:00:00Z").getEpochSecond();
    private static final long YEAR_10000 =
            Instant.parse("+10000-01-01T00:00:00Z").getEpochSecond();

    @Test
    void formats_as_axon_does_across_years_and_fractions_and_reads_back_the_millisecond() {
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 200_000; i++) {
            Instant instant =
                    Instant.ofEpochSecond(random.nextLong(YEAR_0 - 100_000, YEAR_10000 + 100_000), fraction(random));
            String axons = DateTimeUtils.formatInstant(instant);
            assertThat(EventTimestamps.format(instant)).as("%s", instant).isEqualTo(axons);
            assertThat(EventTimestamps.parse(axons)).as(axons).isEqualTo(instant.truncatedTo(ChronoUnit.MILLIS));
        }
    }

    @Test
    void formats_the_edges_as_axon_does() {
        for (String text : List.of(
                "0000-01-01T00:00:00Z",
                "9999-12-31T23:59:59.999999999Z",
                "1970-01-01T00:00:00Z",
                "2024-02-29T12:00:00.100Z",
                "2026-12-01T13:37:37.647Z",
                "2026-12-01T13:37:37.000001Z")) {
            Instant instant = Instant.parse(text);
            assertThat(EventTimestamps.format(instant)).isEqualTo(DateTimeUtils.formatInstant(instant));
        }
    }

    @Test
    void reads_other_shapes_through_axon() {
        for (String text : List.of(
                "2026-12-01T13:37:37Z",
                "2026-12-01T13:37:37.5Z",
                "2026-12-01T14:37:37.647+01:00",
                "2026-12-01T13:37Z",
                "+10000-01-01T00:00:00.000Z",
                "2026-12-01t13:37:37.647z")) {
            assertThat(EventTimestamps.parse(text)).as(text).isEqualTo(DateTimeUtils.parseInstant(text));
        }
    }

    @Test
    void rejects_what_axon_rejects() {
        for (String text : List.of(
                "2026-02-30T13:37:37.647Z",
                "2026-12-01T24:00:00.000Z",
                "2026-12-01T13:60:00.000Z",
                "2026-13-01T13:37:37.647Z",
                "2026-12-01T13:37:37.6x7Z",
                "2026-12-01 13:37:37.647Z")) {
            assertThatThrownBy(() -> DateTimeUtils.parseInstant(text)).as(text).isInstanceOf(DateTimeException.class);
            assertThatThrownBy(() -> EventTimestamps.parse(text)).as(text).isInstanceOf(DateTimeException.class);
        }
    }

    /** Whole seconds, milliseconds, microseconds or nanoseconds, so every fraction length shows up. */
    private static int fraction(SplittableRandom random) {
        return switch (random.nextInt(4)) {
            case 0 -> 0;
            case 1 -> random.nextInt(1000) * 1_000_000;
            case 2 -> random.nextInt(1_000_000) * 1000;
            default -> random.nextInt(1_000_000_000);
        };
    }
}
