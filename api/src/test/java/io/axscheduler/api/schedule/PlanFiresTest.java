package io.axscheduler.api.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Each misfire policy after downtime, and on-time fires that are merely a scan late. */
class PlanFiresTest {

    private static final long THRESHOLD_MS = 5_000;
    private static final int FIRE_ALL_MAX = 100;
    private static final Trigger EVERY_SECOND = Trigger.cron("* * * * * ?", "UTC", null);
    private static final Trigger EVERY_MINUTE = Trigger.cron("0 * * * * ?", "UTC", null);

    private final SettableClock clock = new SettableClock("2026-05-01T10:00:00Z");
    private final Instant anchor = clock.instant();

    private FirePlan plan(Trigger trigger, Instant due, MisfirePolicy policy) {
        return PlanFires.plan(trigger, anchor, due, clock.instant(), policy, THRESHOLD_MS, FIRE_ALL_MAX);
    }

    @Test
    void nothing_is_due_before_the_fire_time() {
        Instant due = clock.instant().plusSeconds(1);
        FirePlan plan = plan(EVERY_SECOND, due, MisfirePolicy.FIRE_ONCE);
        assertThat(plan.fires()).isEmpty();
        assertThat(plan.nextFireTime()).isEqualTo(due);
    }

    @Test
    void a_fire_a_scan_interval_late_is_on_time_whatever_the_policy() {
        Instant due = clock.instant();
        clock.advance(Duration.ofMillis(700));
        for (MisfirePolicy policy : MisfirePolicy.values()) {
            FirePlan plan = plan(EVERY_SECOND, due, policy);
            assertThat(plan.fires()).containsExactly(PlannedFire.fire(due));
            assertThat(plan.nextFireTime()).isEqualTo(due.plusSeconds(1));
        }
    }

    @Test
    void fires_a_scan_interval_late_are_on_time_and_all_fire_whatever_the_policy() {
        Instant due = clock.instant();
        clock.advance(Duration.ofMillis(1_700));
        for (MisfirePolicy policy : MisfirePolicy.values()) {
            FirePlan plan = plan(EVERY_SECOND, due, policy);
            assertThat(plan.fires()).containsExactly(PlannedFire.fire(due), PlannedFire.fire(due.plusSeconds(1)));
            assertThat(plan.nextFireTime()).isEqualTo(due.plusSeconds(2));
        }
    }

    @Test
    void fire_times_older_than_two_periods_are_a_misfire_even_within_the_threshold() {
        Instant due = clock.instant();
        clock.advance(Duration.ofMillis(3_700));

        assertThat(plan(EVERY_SECOND, due, MisfirePolicy.FIRE_ONCE).fires())
                .containsExactly(
                        PlannedFire.fire(due),
                        PlannedFire.skip(
                                due.plusSeconds(1),
                                "4 fire times missed since " + due
                                        + "; misfire policy FIRE_ONCE makes one catch-up fire for the first, the rest are skipped"));
        assertThat(plan(EVERY_SECOND, due, MisfirePolicy.FIRE_ONCE).nextFireTime())
                .isEqualTo(due.plusSeconds(4));
        assertThat(plan(EVERY_SECOND, due, MisfirePolicy.SKIP).fires())
                .singleElement()
                .satisfies(f -> assertThat(f.skipReason()).contains("SKIP"));
        assertThat(plan(EVERY_SECOND, due, MisfirePolicy.FIRE_ALL).fires())
                .containsExactly(
                        PlannedFire.fire(due),
                        PlannedFire.fire(due.plusSeconds(1)),
                        PlannedFire.fire(due.plusSeconds(2)),
                        PlannedFire.fire(due.plusSeconds(3)));
    }

    @Test
    void fire_once_after_downtime_fires_one_catch_up_then_follows_the_schedule() {
        Instant due = clock.instant().plusSeconds(60);
        clock.advance(Duration.ofMinutes(10).plusSeconds(30));
        FirePlan plan = plan(EVERY_MINUTE, due, MisfirePolicy.FIRE_ONCE);
        assertThat(plan.fires()).first().isEqualTo(PlannedFire.fire(due));
        // the nine missed times after the catch-up are one recorded skip, from the second up to the next fire time
        assertThat(plan.fires().get(1).fireTime()).isEqualTo(due.plusSeconds(60));
        assertThat(plan.fires().get(1).skipReason()).contains("10 fire times missed", "FIRE_ONCE");
        assertThat(plan.fires()).hasSize(2);
        assertThat(plan.nextFireTime()).isEqualTo(Instant.parse("2026-05-01T10:11:00Z"));
    }

    @Test
    void skip_after_downtime_records_one_skip_and_resumes_at_the_next_future_time() {
        Instant due = clock.instant().plusSeconds(60);
        clock.advance(Duration.ofMinutes(10).plusSeconds(30));
        FirePlan plan = plan(EVERY_MINUTE, due, MisfirePolicy.SKIP);
        assertThat(plan.fires()).hasSize(1);
        assertThat(plan.fires().get(0).fires()).isFalse();
        assertThat(plan.fires().get(0).skipReason())
                .contains("10 fire times missed")
                .contains("SKIP");
        assertThat(plan.nextFireTime()).isEqualTo(Instant.parse("2026-05-01T10:11:00Z"));
    }

    @Test
    void fire_all_after_downtime_fires_every_missed_time() {
        Instant due = clock.instant().plusSeconds(60);
        clock.advance(Duration.ofMinutes(10).plusSeconds(30));
        FirePlan plan = plan(EVERY_MINUTE, due, MisfirePolicy.FIRE_ALL);
        assertThat(plan.fires()).hasSize(10).allMatch(PlannedFire::fires);
        assertThat(plan.fires().get(9).fireTime()).isEqualTo(Instant.parse("2026-05-01T10:10:00Z"));
        assertThat(plan.nextFireTime()).isEqualTo(Instant.parse("2026-05-01T10:11:00Z"));
    }

    @Test
    void fire_all_is_bounded_and_skips_the_rest() {
        Instant due = clock.instant().plusSeconds(1);
        clock.advance(Duration.ofHours(1));
        FirePlan plan =
                PlanFires.plan(EVERY_SECOND, anchor, due, clock.instant(), MisfirePolicy.FIRE_ALL, THRESHOLD_MS, 5);
        assertThat(plan.fires()).hasSize(6);
        assertThat(plan.fires().subList(0, 5)).allMatch(PlannedFire::fires);
        assertThat(plan.fires().get(5).fires()).isFalse();
        assertThat(plan.fires().get(5).skipReason()).contains("more than 5");
        assertThat(plan.nextFireTime()).isEqualTo(clock.instant().plusSeconds(1));
    }

    @Test
    void fixed_delay_skipped_after_downtime_starts_its_delay_again_from_now() {
        Trigger delay = Trigger.fixedDelay(10_000);
        Instant due = clock.instant();
        clock.advance(Duration.ofMinutes(5));
        assertThat(plan(delay, due, MisfirePolicy.SKIP).nextFireTime())
                .isEqualTo(clock.instant().plusSeconds(10));
        FirePlan once = plan(delay, due, MisfirePolicy.FIRE_ONCE);
        assertThat(once.fires()).containsExactly(PlannedFire.fire(due));
        assertThat(once.nextFireTime()).isNull();
    }

    @Test
    void a_once_trigger_fires_late_unless_skipping() {
        Trigger once = Trigger.once(clock.instant());
        clock.advance(Duration.ofMinutes(5));
        assertThat(plan(once, once.at(), MisfirePolicy.FIRE_ONCE).fires()).containsExactly(PlannedFire.fire(once.at()));
        assertThat(plan(once, once.at(), MisfirePolicy.SKIP).fires().get(0).fires())
                .isFalse();
        assertThat(plan(once, once.at(), MisfirePolicy.SKIP).nextFireTime()).isNull();
    }

    @Test
    void job_keys_are_the_schedule_and_the_fire_time() {
        Instant t = Instant.parse("2026-05-01T10:00:01Z");
        assertThat(ScheduleJobKeys.of("s-1", t, FireKind.SCHEDULED, "j-1"))
                .isEqualTo("schedule:s-1@2026-05-01T10:00:01.000Z");
        assertThat(ScheduleJobKeys.of("s-1", t, FireKind.QUEUED, "j-1"))
                .isEqualTo("schedule:s-1@2026-05-01T10:00:01.000Z");
        // two manual fires in one millisecond are two jobs
        assertThat(ScheduleJobKeys.of("s-1", t, FireKind.MANUAL, "j-1"))
                .isEqualTo("schedule:s-1@2026-05-01T10:00:01.000Z:manual:j-1")
                .isNotEqualTo(ScheduleJobKeys.of("s-1", t, FireKind.MANUAL, "j-2"));
    }

    private FirePlan ahead(Trigger trigger, Instant due, MisfirePolicy policy, long lookAheadMs) {
        return PlanFires.plan(trigger, anchor, due, clock.instant(), lookAheadMs, policy, THRESHOLD_MS, FIRE_ALL_MAX);
    }

    @Test
    void a_fire_time_within_the_look_ahead_fires_now_and_one_beyond_it_waits() {
        Instant due = clock.instant().plusMillis(1_200);
        Trigger minutely = Trigger.fixedRate(60_000, due);
        FirePlan plan = ahead(minutely, due, MisfirePolicy.FIRE_ONCE, 1_500);
        assertThat(plan.fires()).containsExactly(PlannedFire.fire(due));
        assertThat(plan.nextFireTime()).isEqualTo(due.plusSeconds(60));

        Instant beyond = clock.instant().plusMillis(1_501);
        FirePlan later = ahead(Trigger.fixedRate(60_000, beyond), beyond, MisfirePolicy.FIRE_ONCE, 1_500);
        assertThat(later.fires()).isEmpty();
        assertThat(later.nextFireTime()).isEqualTo(beyond);
        assertThat(ahead(minutely, due, MisfirePolicy.FIRE_ONCE, 0).fires()).isEmpty();
    }

    @Test
    void a_short_period_fires_every_time_within_the_look_ahead_once_each() {
        Instant due = clock.instant();
        clock.advance(Duration.ofMillis(300));
        FirePlan plan = ahead(EVERY_SECOND, due, MisfirePolicy.SKIP, 1_500);
        assertThat(plan.fires()).containsExactly(PlannedFire.fire(due), PlannedFire.fire(due.plusSeconds(1)));
        assertThat(plan.nextFireTime()).isEqualTo(due.plusSeconds(2));
    }

    @Test
    void after_a_misfire_the_policy_decides_the_past_and_the_look_ahead_adds_only_future_times() {
        Instant due = clock.instant();
        clock.advance(Duration.ofSeconds(30));
        FirePlan once = ahead(EVERY_SECOND, due, MisfirePolicy.FIRE_ONCE, 1_500);
        assertThat(once.fires()).hasSize(3);
        assertThat(once.fires().get(0)).isEqualTo(PlannedFire.fire(due));
        assertThat(once.fires().get(1).fireTime()).isEqualTo(due.plusSeconds(1));
        assertThat(once.fires().get(1).fires()).isFalse();
        assertThat(once.fires().get(2))
                .isEqualTo(PlannedFire.fire(clock.instant().plusSeconds(1)));
        assertThat(once.nextFireTime()).isEqualTo(clock.instant().plusSeconds(2));
        FirePlan skip = ahead(EVERY_SECOND, due, MisfirePolicy.SKIP, 1_500);
        assertThat(skip.fires()).hasSize(2);
        assertThat(skip.fires().get(0).fires()).isFalse();
        assertThat(skip.fires().get(1))
                .isEqualTo(PlannedFire.fire(clock.instant().plusSeconds(1)));
    }

    @Test
    void a_once_trigger_within_the_look_ahead_fires_once_and_has_no_next() {
        Instant at = clock.instant().plusMillis(800);
        FirePlan plan = ahead(Trigger.once(at), at, MisfirePolicy.FIRE_ONCE, 1_500);
        assertThat(plan.fires()).containsExactly(PlannedFire.fire(at));
        assertThat(plan.nextFireTime()).isNull();
    }
}
