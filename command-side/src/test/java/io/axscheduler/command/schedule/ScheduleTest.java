package io.axscheduler.command.schedule;

import io.axscheduler.api.job.RetryPolicy;
import io.axscheduler.api.problem.IllegalTransitionException;
import io.axscheduler.api.problem.Unchanged;
import io.axscheduler.api.schedule.*;
import java.time.Instant;
import java.util.Map;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ScheduleTest {

    private static final String ID = "schedule-1";
    private static final Instant NOW = Instant.parse("2026-05-01T10:00:00.000Z");
    private static final Trigger EVERY_MINUTE = Trigger.cron("0 * * * * ?", "UTC", null);
    private static final Trigger DELAY = Trigger.fixedDelay(10_000);
    private static final JobTemplate JOB =
            new JobTemplate("noop", Map.of("a", 1), 0, RetryPolicy.defaults(), 30_000, null, null);
    private static final Instant FIRST = NOW.plusSeconds(60);
    private static final Instant SECOND = NOW.plusSeconds(120);

    private AggregateTestFixture<Schedule> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(Schedule.class);
    }

    private static ScheduleCreated created(Trigger trigger, Instant next) {
        return new ScheduleCreated(
                ID, "close-orders", trigger, JOB, MisfirePolicy.FIRE_ONCE, OverlapPolicy.ALLOW, NOW, next);
    }

    private static ScheduleCreated created() {
        return created(EVERY_MINUTE, FIRST);
    }

    @Test
    void create_computes_the_first_fire_time_from_the_anchor() {
        fixture.givenNoPriorActivity()
                .when(new CreateSchedule(
                        ID, "close-orders", EVERY_MINUTE, JOB, MisfirePolicy.FIRE_ONCE, OverlapPolicy.ALLOW, NOW))
                .expectSuccessfulHandlerExecution()
                .expectEvents(created());
    }

    @Test
    void update_restarts_fire_times_from_its_anchor() {
        Instant later = NOW.plusSeconds(30);
        fixture.given(created())
                .when(new UpdateSchedule(
                        ID, "n", Trigger.fixedRate(5_000), JOB, MisfirePolicy.SKIP, OverlapPolicy.QUEUE, later))
                .expectEvents(new ScheduleUpdated(
                        ID,
                        "n",
                        Trigger.fixedRate(5_000),
                        JOB,
                        MisfirePolicy.SKIP,
                        OverlapPolicy.QUEUE,
                        later,
                        later.plusSeconds(5)));
    }

    @Test
    void a_due_fire_records_the_job_and_returns_the_template() {
        fixture.given(created())
                .when(new FireSchedule(ID, FIRST, FireKind.SCHEDULED, "job-1", SECOND))
                .expectEvents(new ScheduleFired(ID, FIRST, FireKind.SCHEDULED, "job-1", SECOND, "default"))
                .expectResultMessagePayload(JOB);
    }

    @Test
    void a_fire_time_already_fired_is_refused_so_a_second_node_cannot_fire_it_again() {
        fixture.given(created(), new ScheduleFired(ID, FIRST, FireKind.SCHEDULED, "job-1", SECOND, "default"))
                .when(new FireSchedule(ID, FIRST, FireKind.SCHEDULED, "job-2", SECOND))
                .expectException(IllegalTransitionException.class)
                .expectNoEvents();
    }

    @Test
    void a_paused_schedule_does_not_fire_on_schedule_but_can_be_run_by_hand() {
        fixture.given(created(), new SchedulePaused(ID))
                .when(new FireSchedule(ID, FIRST, FireKind.SCHEDULED, "job-1", SECOND))
                .expectException(IllegalTransitionException.class);
        fixture.given(created(), new SchedulePaused(ID))
                .when(new FireSchedule(ID, NOW, FireKind.MANUAL, "job-9", null))
                .expectEvents(new ScheduleFired(ID, NOW, FireKind.MANUAL, "job-9", FIRST, "default"));
    }

    @Test
    void pause_of_a_deleted_schedule_is_an_illegal_transition() {
        fixture.given(created(), new ScheduleDeleted(ID))
                .when(new PauseSchedule(ID))
                .expectException(IllegalTransitionException.class);
    }

    @Test
    void a_deleted_schedule_never_fires_not_even_by_hand() {
        fixture.given(created(), new ScheduleDeleted(ID))
                .when(new FireSchedule(ID, NOW, FireKind.MANUAL, "job-9", null))
                .expectException(IllegalTransitionException.class);
    }

    @Test
    void pause_and_resume_change_nothing_twice_and_resume_keeps_the_missed_fire_time_for_the_misfire_policy() {
        // asked for what it already is: Unchanged, which the command bus answers as done (CachedStateRefusals)
        fixture.given(created()).when(new PauseSchedule(ID)).expectEvents(new SchedulePaused(ID));
        fixture.given(created())
                .when(new ResumeSchedule(ID))
                .expectException(Unchanged.class)
                .expectNoEvents();
        fixture.given(created(), new SchedulePaused(ID))
                .when(new PauseSchedule(ID))
                .expectException(Unchanged.class)
                .expectNoEvents();
        fixture.given(created(), new SchedulePaused(ID))
                .when(new ResumeSchedule(ID))
                .expectEvents(new ScheduleResumed(ID, FIRST));
    }

    @Test
    void a_skip_moves_to_the_next_fire_time() {
        fixture.given(created())
                .when(new SkipScheduleFire(ID, FIRST, "previous job running", SECOND))
                .expectEvents(new ScheduleFireSkipped(ID, FIRST, "previous job running", SECOND, "default"));
    }

    @Test
    void queue_holds_one_fire_and_releases_it_once() {
        fixture.given(created(), new ScheduleFired(ID, FIRST, FireKind.SCHEDULED, "job-1", SECOND, "default"))
                .when(new QueueScheduleFire(ID, SECOND, "job-1", SECOND.plusSeconds(60)))
                .expectEvents(new ScheduleFireQueued(ID, SECOND, "job-1", SECOND.plusSeconds(60), "default"));
        fixture.given(created(), new ScheduleFireQueued(ID, FIRST, "job-0", SECOND, "default"))
                .when(new QueueScheduleFire(ID, SECOND, "job-0", SECOND.plusSeconds(60)))
                .expectException(IllegalTransitionException.class);
        fixture.given(created(), new ScheduleFireQueued(ID, FIRST, "job-0", SECOND, "default"))
                .when(new FireSchedule(ID, FIRST, FireKind.QUEUED, "job-1", null))
                .expectEvents(new ScheduleFired(ID, FIRST, FireKind.QUEUED, "job-1", SECOND, "default"));
        fixture.given(
                        created(),
                        new ScheduleFireQueued(ID, FIRST, "job-0", SECOND, "default"),
                        new ScheduleFired(ID, FIRST, FireKind.QUEUED, "job-1", SECOND, "default"))
                .when(new FireSchedule(ID, FIRST, FireKind.QUEUED, "job-2", null))
                .expectException(IllegalTransitionException.class);
    }

    @Test
    void fixed_delay_is_armed_by_the_end_of_its_last_job_only() {
        Instant first = NOW.plusSeconds(10);
        Instant ended = first.plusSeconds(3);
        fixture.given(created(DELAY, first), new ScheduleFired(ID, first, FireKind.SCHEDULED, "job-1", null, "default"))
                .when(new ArmSchedule(ID, "job-1", ended))
                .expectEvents(new ScheduleArmed(ID, "job-1", ended, ended.plusSeconds(10)));
        fixture.given(created(DELAY, first), new ScheduleFired(ID, first, FireKind.SCHEDULED, "job-1", null, "default"))
                .when(new ArmSchedule(ID, "job-0", ended))
                .expectException(IllegalTransitionException.class);
        fixture.given(
                        created(DELAY, first),
                        new ScheduleFired(ID, first, FireKind.SCHEDULED, "job-1", null, "default"),
                        new ScheduleArmed(ID, "job-1", ended, ended.plusSeconds(10)))
                .when(new ArmSchedule(ID, "job-1", ended))
                .expectException(IllegalTransitionException.class);
    }
}
