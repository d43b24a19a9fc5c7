package io.axscheduler.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Random;
import org.axonframework.common.DateTimeUtils;
import org.junit.jupiter.api.Test;

class IsoInstantsTest {

    private static final DateTimeFormatter MILLIS =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
    private static final long YEAR_1 = Instant.parse("0001-01-01T00:00:00Z").getEpochSecond();
    private static final long YEAR_10000 =
            Instant.parse("+10000-01-01T00:00:00Z").getEpochSecond();

    @Test
    void writesWhatTheFormattersWrite() {
        Random random = new Random(20261203);
        List<Instant> edges = List.of(
                Instant.EPOCH,
                Instant.ofEpochSecond(-1, 999_999_999),
                Instant.ofEpochSecond(YEAR_1),
                Instant.ofEpochSecond(YEAR_10000 - 1, 999_999_999),
                Instant.parse("2000-02-29T23:59:59.999Z"),
                Instant.parse("1900-03-01T00:00:00.001Z"),
                Instant.parse("2026-12-31T12:00:00Z"));
        for (Instant at : edges) check(at);
        for (int i = 0; i < 200_000; i++) {
            long seconds = YEAR_1 + (long) (random.nextDouble() * (YEAR_10000 - YEAR_1));
            check(Instant.ofEpochSecond(seconds, random.nextInt(1_000_000_000)));
        }
    }

    private static void check(Instant at) {
        String written = IsoInstants.millis(at);
        assertThat(written).as("%s", at).isEqualTo(MILLIS.format(at)).isEqualTo(DateTimeUtils.formatInstant(at));
        assertThat(IsoInstants.parse(written)).isEqualTo(at.truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
    }

    @Test
    void yearsBeyondFourDigitsAreStillIso() {
        Instant far = Instant.parse("+10000-01-01T00:00:00.500Z");
        assertThat(IsoInstants.millis(far)).isEqualTo("+10000-01-01T00:00:00.500Z");
        assertThat(IsoInstants.parse(IsoInstants.millis(far))).isEqualTo(far);
        Instant before = Instant.parse("-0001-12-31T23:59:59Z");
        assertThat(IsoInstants.parse(IsoInstants.millis(before))).isEqualTo(before);
    }

    @Test
    void readsWhatInstantParseReadsAndRefusesWhatItRefuses() {
        Random random = new Random(42);
        String digits = "0123456789";
        String others = "Zz+-:.T 1a";
        for (int i = 0; i < 300_000; i++) {
            long seconds = YEAR_1 + (long) (random.nextDouble() * (YEAR_10000 - YEAR_1));
            String base = Instant.ofEpochSecond(seconds).toString(); // yyyy-MM-ddTHH:mm:ssZ
            StringBuilder s = new StringBuilder(base.substring(0, base.length() - 1));
            int fraction = random.nextInt(12) - 1; // -1: none; 0: a bare point; 10, 11: too many digits
            if (fraction >= 0) {
                s.append('.');
                for (int d = 0; d < fraction; d++) s.append(digits.charAt(random.nextInt(10)));
            }
            s.append('Z');
            // one character in three inputs changed: a digit (days past the month's end, hour 24, second 60, ...)
            // or another character
            if (random.nextInt(3) == 0) {
                int at = random.nextInt(s.length());
                String pool = random.nextBoolean() ? digits : others;
                s.setCharAt(at, pool.charAt(random.nextInt(pool.length())));
            }
            same(s.toString());
        }
        for (String s : List.of(
                "2026-02-29T00:00:00Z",
                "2024-02-29T00:00:00Z",
                "2100-02-29T00:00:00Z",
                "2000-02-29T00:00:00Z",
                "2026-04-31T00:00:00Z",
                "2026-12-31T24:00:00Z",
                "2026-12-31T23:60:00Z",
                "2016-12-31T23:59:60Z",
                "2026-12-31T23:59:59z",
                "2026-12-31T23:59:59+01:00",
                "2026-12-31T23:59:59.Z",
                "2026-12-31T23:59:59.1234567891Z",
                "0000-01-01T00:00:00Z",
                "2026-13-01T00:00:00Z",
                "2026-00-01T00:00:00Z",
                "2026-01-00T00:00:00Z",
                "")) {
            same(s);
        }
    }

    private static void same(String s) {
        Instant expected;
        try {
            expected = Instant.parse(s);
        } catch (DateTimeParseException e) {
            assertThatThrownBy(() -> IsoInstants.parse(s)).as(s).isInstanceOf(DateTimeParseException.class);
            return;
        }
        assertThat(IsoInstants.parse(s)).as(s).isEqualTo(expected);
    }
}
