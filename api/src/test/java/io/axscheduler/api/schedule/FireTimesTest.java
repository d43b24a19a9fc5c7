package io.axscheduler.api.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;

class FireTimesTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    private final SettableClock clock = new SettableClock("2026-03-27T12:00:00Z");

    private static List<Instant> times(String... instants) {
        return java.util.Arrays.stream(instants).map(Instant::parse).toList();
    }

    private static long firesOn(List<Instant> fires, LocalDate day, ZoneId zone) {
        return fires.stream()
                .filter(t -> t.atZone(zone).toLocalDate().equals(day))
                .count();
    }

    @Test
    void a_daily_time_says_every_day_and_a_zone_other_than_utc_is_named() {
        assertThat(FireTimes.describe(Trigger.cron("0 30 2 * * ?", "Asia/Shanghai", null)))
                .isEqualTo("at 02:30 every day (Asia/Shanghai time)");
        assertThat(FireTimes.describe(Trigger.cron("0 30 2 * * ?", "UTC", null)))
                .isEqualTo("at 02:30 every day");
        // limited to years or months, still every day's time
        assertThat(FireTimes.describe(Trigger.cron("0 0 12 * * ? 2027-2028", "UTC", null)))
                .isEqualTo("at 12:00 every day in the years 2027 to 2028");
        assertThat(FireTimes.describe(Trigger.cron("0 0 12 * * ? 2027", "UTC", null)))
                .isEqualTo("at 12:00 every day in 2027");
        assertThat(FireTimes.describe(Trigger.cron("0 0 12 1 * ? 2027-2028", "UTC", null)))
                .isEqualTo("at 12:00 on day 1 of the month in the years 2027 to 2028");
        assertThat(FireTimes.describe(Trigger.cron("0 0 12 * 1-3 ?", "UTC", null)))
                .isEqualTo("at 12:00 every day in the months January to March");
        // a weekday or a day of the month restricts the days: no "every day", whatever follows the time
        assertThat(FireTimes.describe(Trigger.cron("0 0 12 ? 5 MON", "UTC", null)))
                .doesNotContain("every day")
                .contains("Monday");
        assertThat(FireTimes.describe(Trigger.cron("0 0 12 ? 5 6#3", "UTC", null)))
                .doesNotContain("every day");
        assertThat(FireTimes.describe(Trigger.cron("0 12 * 5 1", "UTC", CronDialect.UNIX)))
                .doesNotContain("every day");
        assertThat(FireTimes.describe(Trigger.cron("0 0 9 ? * MON", "Europe/Berlin", null)))
                .isEqualTo("at 09:00 every Monday (Europe/Berlin time)");
        // hours are the zone's too (helper-53)
        assertThat(FireTimes.describe(Trigger.cron("0 0 9-17 * * ?", "Asia/Shanghai", null)))
                .endsWith(" (Asia/Shanghai time)");
        assertThat(FireTimes.describe(Trigger.cron("0 9-17 * * 1-5", "Asia/Shanghai", CronDialect.UNIX)))
                .endsWith(" (Asia/Shanghai time)");
        // no hour, day or month: the same in every zone
        assertThat(FireTimes.describe(Trigger.cron("0 */5 * * * ?", "Asia/Shanghai", null)))
                .isEqualTo("every 5 minutes");
    }

    @Test
    void daily_0230_in_berlin_fires_once_on_the_spring_forward_day_just_after_the_gap() {
        Trigger daily = Trigger.cron("0 30 2 * * ?", "Europe/Berlin", null);
        List<Instant> fires = FireTimes.preview(daily, clock.instant(), clock.instant(), 4);
        assertThat(fires)
                .containsExactlyElementsOf(times(
                        "2026-03-28T01:30:00Z", // 02:30 CET
                        "2026-03-29T01:30:00Z", // 02:30 does not exist: 03:30 CEST, once
                        "2026-03-30T00:30:00Z", // 02:30 CEST
                        "2026-03-31T00:30:00Z"));
        assertThat(firesOn(fires, LocalDate.of(2026, 3, 29), BERLIN)).isEqualTo(1);
    }

    @Test
    void every_time_in_the_skipped_hour_fires_as_far_past_it_as_it_lay_in_it() {
        clock.set("2027-03-27T12:00:00Z");
        Trigger tenMinutes = Trigger.cron("0 */10 2 28 3 ?", "Europe/Berlin", null);
        assertThat(FireTimes.preview(tenMinutes, clock.instant(), clock.instant(), 7))
                .containsExactlyElementsOf(times(
                        "2027-03-28T01:00:00Z", // 02:00 → 03:00 CEST
                        "2027-03-28T01:10:00Z",
                        "2027-03-28T01:20:00Z",
                        "2027-03-28T01:30:00Z",
                        "2027-03-28T01:40:00Z",
                        "2027-03-28T01:50:00Z", // 02:50 → 03:50 CEST
                        "2028-03-28T00:00:00Z"));
        // the same from a unix expression, in New York, and when the hour after the gap matches too (once each)
        assertThat(FireTimes.preview(
                        Trigger.cron("*/15 2 28 3 *", "Europe/Berlin", CronDialect.UNIX),
                        clock.instant(),
                        clock.instant(),
                        4))
                .containsExactlyElementsOf(times(
                        "2027-03-28T01:00:00Z",
                        "2027-03-28T01:15:00Z",
                        "2027-03-28T01:30:00Z",
                        "2027-03-28T01:45:00Z"));
        clock.set("2027-03-13T12:00:00Z");
        assertThat(FireTimes.preview(
                        Trigger.cron("0 0/20 2 14 3 ?", "America/New_York", null), clock.instant(), clock.instant(), 3))
                .containsExactlyElementsOf(
                        times("2027-03-14T07:00:00Z", "2027-03-14T07:20:00Z", "2027-03-14T07:40:00Z"));
        clock.set("2027-03-27T12:00:00Z");
        assertThat(FireTimes.preview(
                        Trigger.cron("0 15,45 2,3 28 3 ?", "Europe/Berlin", null), clock.instant(), clock.instant(), 3))
                .containsExactlyElementsOf(
                        times("2027-03-28T01:15:00Z", "2027-03-28T01:45:00Z", "2028-03-28T00:15:00Z"));
    }

    @Test
    void a_gap_of_half_an_hour_fires_its_skipped_times_and_the_real_ones_in_time_order() {
        // Lord Howe Island: 02:00 jumps to 02:30 (+10:30 to +11:00) on 2027-10-03
        clock.set("2027-10-02T12:00:00Z");
        Trigger twenty = Trigger.cron("0 0/20 2 * * ?", "Australia/Lord_Howe", null);
        assertThat(FireTimes.preview(twenty, clock.instant(), clock.instant(), 4))
                .containsExactlyElementsOf(times(
                        "2027-10-02T15:30:00Z", // 02:00, skipped: at 02:30
                        "2027-10-02T15:40:00Z", // 02:40, real
                        "2027-10-02T15:50:00Z", // 02:20, skipped: at 02:50
                        "2027-10-03T15:00:00Z")); // 02:00 the next day (+11:00)
    }

    @Test
    void a_time_only_in_a_later_years_gap_is_found_past_the_years_without_it() {
        // 26 March: the spring-forward day in Berlin in 2028 (not in 2027)
        clock.set("2027-03-26T01:30:01Z");
        Trigger springDay = Trigger.cron("0 30 2 26 3 ?", "Europe/Berlin", null);
        assertThat(FireTimes.preview(springDay, clock.instant(), clock.instant(), 2))
                .containsExactlyElementsOf(times("2028-03-26T01:30:00Z", "2029-03-26T00:30:00Z"));
    }

    @Test
    void every_second_of_the_skipped_hour_and_the_hour_after_fires_once_and_in_order() {
        clock.set("2027-03-28T01:59:58Z");
        Trigger seconds = Trigger.cron("* * 2,3 28 3 ?", "Europe/Berlin", null);
        assertThat(FireTimes.preview(seconds, clock.instant(), clock.instant(), 3))
                .containsExactlyElementsOf(
                        times("2027-03-28T01:59:59Z", "2028-03-28T00:00:00Z", "2028-03-28T00:00:01Z"));
    }

    @Test
    void a_day_of_a_time_in_the_skipped_hour_counts_its_fire() {
        clock.set("2027-03-27T12:00:00Z");
        assertThat(FireTimes.firesPerDay(
                        Trigger.cron("0 30 2 28 3 ?", "Europe/Berlin", null), clock.instant(), clock.instant()))
                .isEqualTo(1);
        assertThat(FireTimes.firesPerDay(
                        Trigger.cron("0 15,45 2 28 3 ?", "Europe/Berlin", null), clock.instant(), clock.instant()))
                .isEqualTo(2);
    }

    @Test
    void daily_0230_in_berlin_fires_once_on_the_fall_back_day_at_its_first_occurrence() {
        clock.set("2026-10-24T12:00:00Z");
        Trigger daily = Trigger.cron("0 30 2 * * ?", "Europe/Berlin", null);
        List<Instant> fires = FireTimes.preview(daily, clock.instant(), clock.instant(), 3);
        assertThat(fires)
                .containsExactlyElementsOf(times(
                        "2026-10-25T00:30:00Z", // 02:30 CEST; 02:30 CET an hour later does not fire again
                        "2026-10-26T01:30:00Z",
                        "2026-10-27T01:30:00Z"));
        assertThat(firesOn(fires, LocalDate.of(2026, 10, 25), BERLIN)).isEqualTo(1);
    }

    @Test
    void an_all_day_expression_runs_through_both_copies_of_the_repeated_hour() {
        clock.set("2026-10-24T23:50:00Z");
        Trigger every20 = Trigger.cron("0 */20 * * * ?", "Europe/Berlin", null);
        assertThat(FireTimes.preview(every20, clock.instant(), clock.instant(), 7))
                .containsExactlyElementsOf(times(
                        "2026-10-25T00:00:00Z",
                        "2026-10-25T00:20:00Z",
                        "2026-10-25T00:40:00Z", // 02:00-02:40 CEST
                        "2026-10-25T01:00:00Z",
                        "2026-10-25T01:20:00Z",
                        "2026-10-25T01:40:00Z", // 02:00-02:40 CET
                        "2026-10-25T02:00:00Z"));
    }

    @Test
    void an_hour_field_matching_every_hour_in_another_form_runs_all_day_as_a_star_does() {
        clock.set("2027-10-30T23:00:00Z");
        for (String hours : List.of("*", "*/1", "0/1", "0-23", "0-23/1", "0-11,12-23", "0/2,1/2")) {
            assertThat(FireTimes.preview(
                            Trigger.cron("0 30 " + hours + " 31 10 ?", "Europe/Berlin", null),
                            clock.instant(),
                            clock.instant(),
                            3))
                    .as(hours)
                    .containsExactlyElementsOf(times(
                            "2027-10-30T23:30:00Z", // 01:30 CEST
                            "2027-10-31T00:30:00Z", // 02:30 CEST
                            "2027-10-31T01:30:00Z")); // 02:30 CET, the repeated hour
        }
        // a field that leaves out an hour keeps wall-clock times: the repeated 02:30 fires once
        assertThat(FireTimes.preview(
                        Trigger.cron("0 30 1-22 31 10 ?", "Europe/Berlin", null), clock.instant(), clock.instant(), 3))
                .containsExactlyElementsOf(
                        times("2027-10-30T23:30:00Z", "2027-10-31T00:30:00Z", "2027-10-31T02:30:00Z"));
    }

    @Test
    void an_all_day_expression_has_no_fires_in_the_skipped_hour_and_no_duplicates_after_it() {
        clock.set("2026-03-29T00:30:00Z");
        Trigger every20 = Trigger.cron("0 */20 * * * ?", "Europe/Berlin", null);
        assertThat(FireTimes.preview(every20, clock.instant(), clock.instant(), 4))
                .containsExactlyElementsOf(times(
                        "2026-03-29T00:40:00Z", // 01:40 CET
                        "2026-03-29T01:00:00Z", // 03:00 CEST
                        "2026-03-29T01:20:00Z",
                        "2026-03-29T01:40:00Z"));
    }

    @Test
    void asia_shanghai_has_no_daylight_saving_and_is_eight_hours_ahead() {
        Trigger bills = Trigger.cron("0 5 1 * * ?", "Asia/Shanghai", null);
        assertThat(FireTimes.preview(bills, clock.instant(), clock.instant(), 2))
                .containsExactlyElementsOf(times("2026-03-27T17:05:00Z", "2026-03-28T17:05:00Z"));
    }

    @Test
    void utc_is_the_default_zone_and_quartz_with_seconds_the_default_dialect() {
        clock.set("2026-03-27T12:00:00.500Z");
        Trigger everySecond = Trigger.cron("* * * * * ?", null, null);
        assertThat(everySecond.timezone()).isEqualTo("UTC");
        assertThat(everySecond.dialect()).isEqualTo(CronDialect.QUARTZ);
        assertThat(FireTimes.preview(everySecond, clock.instant(), clock.instant(), 3))
                .containsExactlyElementsOf(
                        times("2026-03-27T12:00:01Z", "2026-03-27T12:00:02Z", "2026-03-27T12:00:03Z"));
    }

    @Test
    void the_next_fire_is_strictly_after_the_given_instant() {
        Trigger everyFive = Trigger.cron("0 */5 * * * ?", "UTC", null);
        assertThat(FireTimes.next(everyFive, clock.instant(), Instant.parse("2026-03-27T12:05:00Z")))
                .contains(Instant.parse("2026-03-27T12:10:00Z"));
    }

    @Test
    void unix_dialect_reads_five_fields_without_seconds() {
        Trigger unix = Trigger.cron("*/15 * * * *", "UTC", CronDialect.UNIX);
        assertThat(FireTimes.preview(unix, clock.instant(), clock.instant(), 2))
                .containsExactlyElementsOf(times("2026-03-27T12:15:00Z", "2026-03-27T12:30:00Z"));
        assertThatThrownBy(() -> Trigger.cron("*/15 * * * *", "UTC", CronDialect.QUARTZ))
                .isInstanceOf(InvalidTriggerException.class)
                .satisfies(
                        e -> assertThat(((InvalidTriggerException) e).field()).isEqualTo("expression"));
    }

    @Test
    void unix_day_of_week_ranges_may_start_on_sunday() {
        // the clock's day is a Friday
        for (String range : new String[] {"SUN-TUE", "sun-tue", "0-2", "FRI,SUN-TUE"}) {
            Trigger trigger = Trigger.cron("0 0 * * " + range, "UTC", CronDialect.UNIX);
            assertThat(FireTimes.preview(trigger, clock.instant(), clock.instant(), 3))
                    .as(range)
                    .endsWith(times("2026-03-29T00:00:00Z", "2026-03-30T00:00:00Z", "2026-03-31T00:00:00Z")
                            .toArray(Instant[]::new));
        }
        assertThat(FireTimes.describe(Trigger.cron("0 0 * * SUN-TUE", "UTC", CronDialect.UNIX)))
                .isEqualTo("at 00:00 every day between Sunday and Tuesday");
    }

    @Test
    void fixed_rate_fires_at_the_anchor_plus_whole_intervals() {
        Instant anchor = clock.instant();
        Trigger rate = Trigger.fixedRate(30_000);
        clock.advance(Duration.ofSeconds(95));
        assertThat(FireTimes.next(rate, anchor, clock.instant())).contains(anchor.plusSeconds(120));
        assertThat(FireTimes.next(rate, anchor, anchor)).contains(anchor.plusSeconds(30));
    }

    @Test
    void fixed_rate_with_start_at_fires_first_exactly_at_start_at_then_every_interval_whatever_the_anchor() {
        Instant anchor = clock.instant();
        Instant startAt = anchor.plusMillis(12_345);
        Trigger rate = Trigger.fixedRate(60_000, startAt);
        assertThat(FireTimes.next(rate, anchor, anchor)).contains(startAt);
        assertThat(FireTimes.next(rate, anchor, startAt.minusNanos(1))).contains(startAt);
        assertThat(FireTimes.next(rate, anchor, startAt)).contains(startAt.plusSeconds(60));
        assertThat(FireTimes.preview(rate, anchor, anchor, 3))
                .containsExactly(startAt, startAt.plusSeconds(60), startAt.plusSeconds(120));
        assertThat(FireTimes.next(rate, anchor.plusSeconds(3600), anchor.plusSeconds(3600)))
                .as("the anchor does not move the phase")
                .contains(startAt.plusSeconds(3600));
    }

    @Test
    void fixed_rate_with_a_past_start_at_keeps_its_phase() {
        Instant startAt = Instant.parse("2026-03-27T11:00:00.250Z");
        Trigger rate = Trigger.fixedRate(30_000, startAt);
        assertThat(FireTimes.next(rate, clock.instant(), clock.instant()))
                .contains(Instant.parse("2026-03-27T12:00:00.250Z"));
        assertThat(FireTimes.describe(rate)).isEqualTo("every 30 seconds from 2026-03-27T11:00:00.250Z");
        assertThat(FireTimes.firesPerDay(rate, clock.instant(), clock.instant()))
                .isEqualTo(2_880);
    }

    @Test
    void fixed_delay_fires_once_after_the_anchor_then_waits_for_a_run_to_end() {
        Instant anchor = clock.instant();
        Trigger delay = Trigger.fixedDelay(10_000);
        assertThat(FireTimes.next(delay, anchor, anchor)).contains(anchor.plusSeconds(10));
        assertThat(FireTimes.next(delay, anchor, anchor.plusSeconds(10))).isEmpty();
    }

    @Test
    void once_fires_at_its_instant_and_never_again() {
        Trigger once = Trigger.once(Instant.parse("2026-04-01T00:00:00Z"));
        assertThat(FireTimes.preview(once, clock.instant(), clock.instant(), 5)).containsExactly(once.at());
    }

    @Test
    void fires_per_day_counts_the_next_24_hours() {
        assertThat(FireTimes.firesPerDay(Trigger.cron("* * * * * ?", "UTC", null), clock.instant(), clock.instant()))
                .isEqualTo(86_400);
        assertThat(FireTimes.firesPerDay(Trigger.cron("0 * * * * ?", "UTC", null), clock.instant(), clock.instant()))
                .isEqualTo(1_440);
        assertThat(FireTimes.firesPerDay(
                        Trigger.cron("0 */5 * * * ?", "Asia/Shanghai", null), clock.instant(), clock.instant()))
                .isEqualTo(288);
        assertThat(FireTimes.firesPerDay(Trigger.cron("0/10 0 1 * * ?", "UTC", null), clock.instant(), clock.instant()))
                .isEqualTo(6);
        assertThat(FireTimes.firesPerDay(Trigger.cron("0 5 1 * * ?", "UTC", null), clock.instant(), clock.instant()))
                .isEqualTo(1);
        assertThat(FireTimes.firesPerDay(Trigger.fixedRate(30_000), clock.instant(), clock.instant()))
                .isEqualTo(2_880);
    }

    @Test
    void fires_per_day_of_a_cron_counts_from_its_next_fire_so_a_day_without_fires_is_not_its_day() {
        Instant saturday = Instant.parse("2026-12-05T12:00:00Z");
        assertThat(FireTimes.firesPerDay(Trigger.cron("* * * ? * MON-FRI", "UTC", null), saturday, saturday))
                .as("every second on weekdays, looked at on a Saturday")
                .isEqualTo(86_400);
        assertThat(FireTimes.firesPerDay(Trigger.cron("0 0 9 ? * MON", "UTC", null), saturday, saturday))
                .as("weekly")
                .isEqualTo(1);
        assertThat(FireTimes.firesPerDay(Trigger.cron("0 0 0 1 1 ? 2020", "UTC", null), saturday, saturday))
                .as("no fire ahead")
                .isZero();
    }

    @Test
    void shortest_interval_is_what_the_floor_is_checked_against() {
        assertThat(FireTimes.shortestInterval(
                        Trigger.cron("*/1 * * * * ?", "UTC", null), clock.instant(), clock.instant()))
                .contains(Duration.ofSeconds(1));
        assertThat(FireTimes.shortestInterval(
                        Trigger.cron("0 0/5 * * * ?", "UTC", null), clock.instant(), clock.instant()))
                .contains(Duration.ofMinutes(5));
        assertThat(FireTimes.shortestInterval(Trigger.fixedRate(250), clock.instant(), clock.instant()))
                .contains(Duration.ofMillis(250));
        assertThat(FireTimes.shortestInterval(
                        Trigger.once(clock.instant().plusSeconds(5)), clock.instant(), clock.instant()))
                .isEmpty();
    }

    @Test
    void weekdays_and_the_nth_weekday_of_a_month_are_said_as_a_person_says_them() {
        assertThat(FireTimes.describe(Trigger.cron("0 0 12 ? * 6#3", "UTC", null)))
                .as("6#3")
                .contains("on the third Friday of every month")
                .doesNotContain("Friday 3");
        assertThat(FireTimes.describe(Trigger.cron("0 0 0 ? * SAT,SUN", "UTC", null)))
                .as("SAT,SUN")
                .contains("Saturday and Sunday")
                .doesNotContain("of the month");
    }

    @Test
    void a_step_from_an_offset_or_in_a_range_says_where_it_starts() {
        // cron-utils alone: "every 15 minutes", "every 10 seconds", "every 6 hours at minute 0", "every 2 years"
        assertThat(describe("0 5/15 * * * ?")).isEqualTo("at minutes 5, 20, 35 and 50");
        assertThat(describe("5/10 * * * * ?")).isEqualTo("at seconds 5, 15, 25, 35, 45 and 55");
        assertThat(describe("0 0 3-23/6 * * ?")).isEqualTo("in hours 3, 9, 15 and 21");
        assertThat(describe("5/2 * * * * ?")).isEqualTo("every 2 seconds between 5 and 59");
        assertThat(describe("0 0 12 * * ? 2027/2"))
                .isEqualTo("at 12:00 every day in every second year from 2027 to 2099");
        assertThat(describe("0 0 12 * * ? 2027-2030/2")).isEqualTo("at 12:00 every day in 2027 and 2029");
        assertThat(describe("5/15 * * * *", CronDialect.UNIX)).isEqualTo("at minutes 5, 20, 35 and 50");
        assertThat(describe("0 5/15 * * *", CronDialect.UNIX)).isEqualTo("in hours 5 and 20");
        // one second beside a step in the minutes or hours: cron-utils alone says "and second 30", "every 15 minutes"
        assertThat(describe("30 0 0/1 * * ?")).isEqualTo("every hour, at second 30");
        assertThat(describe("30 */15 * * * ?")).isEqualTo("every 15 minutes, at second 30");
        assertThat(describe("15 10 */2 * * ?")).isEqualTo("every 2 hours at minute 10 and second 15");
        assertThat(describe("30 5/15 * * * ?")).isEqualTo("at minutes 5, 20, 35 and 50, at second 30");
        // a step of one is a range, not a list of every value in it
        assertThat(describe("0 0 1/1 * * ?")).isEqualTo("every hour between 1 and 23");
        assertThat(describe("0 5/1 * * * ?")).isEqualTo("every minute between 5 and 59");
        assertThat(describe("0 0 3-20/1 * * ?")).isEqualTo("every hour between 3 and 20");
        // from the field's start, cron-utils' words are right
        assertThat(describe("0 0/15 * * * ?")).isEqualTo("every 15 minutes");
        assertThat(describe("*/5 * * * * ?")).isEqualTo("every 5 seconds");
        assertThat(describe("0 0 0/6 * * ?")).isEqualTo("every 6 hours at minute 0");
    }

    private static String describe(String expression) {
        return describe(expression, null);
    }

    private static String describe(String expression, CronDialect dialect) {
        return FireTimes.describe(Trigger.cron(expression, "UTC", dialect));
    }

    @Test
    void both_day_fields_as_question_marks_and_a_sixth_weekday_are_refused_in_words_about_them() {
        assertThatThrownBy(() -> Trigger.cron("0 0 12 ? * ?", "UTC", null))
                .isInstanceOf(InvalidTriggerException.class)
                .hasMessageContaining("day-of-month and day-of-week are both ?")
                .hasMessageContaining("0 0 12 * * ? runs every day");
        assertThatThrownBy(() -> FireTimes.requireFires(
                        Trigger.cron("0 0 12 ? * 1#6", "UTC", null), Instant.parse("2026-12-01T00:00:00Z")))
                .isInstanceOf(InvalidTriggerException.class)
                .hasMessageContaining("never fires after 2026-12-01T00:00:00.000Z: day-of-week 1#6 asks for the 6th");
        assertThat(describe("0 0 12 ? * 1#5")).isEqualTo("at 12:00 on the fifth Sunday of every month");
        for (String feb31 : List.of("0 0 2 31 2 ?", "0 0 2 30 FEB ?"))
            assertThatThrownBy(() -> FireTimes.requireFires(
                            Trigger.cron(feb31, "UTC", null), Instant.parse("2026-12-01T00:00:00Z")))
                    .as(feb31)
                    .hasMessageContaining(": February has no day 3")
                    .hasMessageEndingWith("(at most 29)");
        assertThatThrownBy(() -> FireTimes.requireFires(
                        Trigger.cron("0 0 2 31 4 ?", "UTC", null), Instant.parse("2026-12-01T00:00:00Z")))
                .hasMessageEndingWith(": April has no day 31 (at most 30)");
    }

    @Test
    void a_quartz_expression_with_both_day_fields_is_refused_in_its_own_words_with_both_fixes() {
        assertThatThrownBy(
                        () -> FireTimes.next(Trigger.cron("0 0 12 * * MON", "UTC", null), Instant.EPOCH, Instant.EPOCH))
                .isInstanceOf(InvalidTriggerException.class)
                .hasMessageContaining("day-of-month (*) and day-of-week (MON) are both given")
                .hasMessageContaining("0 0 12 ? * MON for the weekdays")
                .hasMessageContaining("0 0 12 * * ? for the days of the month")
                .hasMessageNotContaining("0 0 12 * * 2");
        // another fault as well: the parser's own words, which name it
        assertThatThrownBy(
                        () -> FireTimes.next(Trigger.cron("0 0 25 * * MON", "UTC", null), Instant.EPOCH, Instant.EPOCH))
                .hasMessageContaining("Value 25 not in range");
    }

    @Test
    void a_step_in_a_day_field_is_described_as_the_days_it_is_since_it_starts_again_each_month() {
        // the 31st, then the 1st: two days apart, not five
        assertThat(FireTimes.describe(Trigger.cron("0 0 12 1/5 * ?", "UTC", null)))
                .isEqualTo("at 12:00 on days 1, 6, 11, 16, 21, 26 and 31 of the month");
        java.time.Instant after = java.time.Instant.parse("2027-01-30T00:00:00Z");
        assertThat(FireTimes.preview(Trigger.cron("0 0 12 1/5 * ?", "UTC", null), after, after, 2))
                .containsExactly(
                        java.time.Instant.parse("2027-01-31T12:00:00Z"),
                        java.time.Instant.parse("2027-02-01T12:00:00Z"));
        assertThat(FireTimes.describe(Trigger.cron("0 12 */10 * *", "UTC", CronDialect.UNIX)))
                .isEqualTo("at 12:00 on days 1, 11, 21 and 31 of the month");
        assertThat(FireTimes.describe(Trigger.cron("0 0 0 ? * 2/2", "UTC", null)))
                .as("Quartz weekdays 2, 4, 6")
                .isEqualTo("at 00:00 on Monday, Wednesday and Friday");
        assertThat(FireTimes.describe(Trigger.cron("0 */10 * * * ?", "UTC", null)))
                .as("a step in another field stays a step")
                .isEqualTo("every 10 minutes");
    }

    @Test
    void a_unix_cron_restricting_both_day_fields_is_described_as_either_day() {
        // POSIX: the 1st of each month and every Monday, as the fire times have it
        assertThat(FireTimes.describe(Trigger.cron("0 9 1 * 1", "UTC", CronDialect.UNIX)))
                .isEqualTo("at 09:00 on day 1 of the month, and at 09:00 every Monday");
        java.time.Instant after = java.time.Instant.parse("2026-12-28T10:00:00Z");
        assertThat(FireTimes.preview(Trigger.cron("0 9 1 * 1", "UTC", CronDialect.UNIX), after, after, 3))
                .containsExactly(
                        java.time.Instant.parse("2027-01-01T09:00:00Z"),
                        java.time.Instant.parse("2027-01-04T09:00:00Z"),
                        java.time.Instant.parse("2027-01-11T09:00:00Z"));
        assertThat(FireTimes.describe(Trigger.cron("0 9 * * 1", "UTC", CronDialect.UNIX)))
                .isEqualTo("at 09:00 every Monday");
    }

    @Test
    void descriptions_are_human() {
        assertThat(FireTimes.describe(Trigger.cron("0 */5 * * * ?", null, null)))
                .isEqualTo("every 5 minutes");
        assertThat(FireTimes.describe(Trigger.fixedRate(30_000))).isEqualTo("every 30 seconds");
        // Quartz's day-of-week L alone is Saturday, every week (cron-utils said "last Sunday of every month")
        assertThat(FireTimes.describe(Trigger.cron("0 0 0 ? * L", null, null))).isEqualTo("at 00:00 every Saturday");
        assertThat(FireTimes.describe(Trigger.cron("0 0 0 ? * 6L", null, null)))
                .isEqualTo("at 00:00 last Friday of every month");
        assertThat(FireTimes.describe(Trigger.fixedDelay(60_000))).isEqualTo("1 minute after the previous run ended");
        // single fields as a person says them, not "at 2 hour at 28 day at March month"
        assertThat(FireTimes.describe(Trigger.cron("0 0,30 2 28 3 ?", null, null)))
                .isEqualTo("at minutes 0 and 30 in hour 2 on day 28 of the month in March");
        assertThat(FireTimes.describe(Trigger.cron("0 */10 2 28 3 ?", null, null)))
                .isEqualTo("every 10 minutes in hour 2 on day 28 of the month in March");
        assertThat(FireTimes.describe(Trigger.cron("0 0 9 1,15 * ?", null, null)))
                .isEqualTo("at 09:00 on days 1 and 15 of the month");
        assertThat(FireTimes.describe(Trigger.cron("0 0 0 * 1,7 ?", null, null)))
                .isEqualTo("at 00:00 every day in January and July");
        assertThat(FireTimes.describe(Trigger.cron("0 30 2 28 3 ? 2027", null, null)))
                .isEqualTo("at 02:30 on day 28 of the month in March in 2027");
        assertThat(FireTimes.describe(Trigger.cron("0 0 9 ? * MON-FRI", null, null)))
                .isEqualTo("at 09:00 every day between Monday and Friday");
    }
}
