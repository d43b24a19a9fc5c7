package io.axscheduler.scheduler.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.axscheduler.api.Metadata;
import io.axscheduler.api.job.*;
import io.axscheduler.api.problem.IllegalTransitionException;
import io.axscheduler.scheduler.SchedulerCommands;
import io.axscheduler.scheduler.observe.ObserveProperties;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.commandhandling.gateway.DefaultCommandGateway;
import org.axonframework.test.saga.SagaTestFixture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

class JobLifecycleSagaTest {

    private static final String JOB_ID = "job-1";
    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00.000Z");
    private static final long TIMEOUT_MS = 5_000;
    private static final Duration TIMEOUT = Duration.ofMillis(TIMEOUT_MS);
    /** Three retries, waiting 1 s, 2 s, 4 s. */
    private static final RetryPolicy THREE_RETRIES = new RetryPolicy(3, Backoff.exponential(1_000, 2.0, 60_000));

    /** A deadline's reason: the fixture's database never answers, so no node is found silent. */
    private static final String RAN_TOO_LONG = JobLifecycleSaga.runTooLong(TIMEOUT_MS);

    private SagaTestFixture<JobLifecycleSaga> fixture;

    @BeforeEach
    void setUp() {
        fixture = new SagaTestFixture<>(JobLifecycleSaga.class);
        fixture.registerResource(new FixtureClock());
        fixture.registerResource(new SchedulerCommands(DefaultCommandGateway.builder()
                .commandBus(fixture.getCommandBus())
                .build()));
        // a fixture's events come one at a time, outside a processor's batch: the read model is never asked
        fixture.registerResource(new NamedParameterJdbcTemplate(new DriverManagerDataSource()));
        fixture.registerResource(new ObserveProperties(2000));
    }

    /** How far the saga's clock is ahead of the fixture's, whose deadlines always come on time: a late deadline. */
    private Duration clockAhead = Duration.ZERO;

    /** The saga's clock follows the fixture's time, so runAt can be checked against it. */
    private final class FixtureClock extends Clock {
        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return fixture.currentTime().plus(clockAhead);
        }
    }

    /** The run deadline of an attempt started at T0. */
    private static RunDeadline deadline(int attempt) {
        return new RunDeadline(attempt, T0.plus(TIMEOUT).toEpochMilli(), false, TIMEOUT_MS);
    }

    private static JobStarted started(int attempt, RetryPolicy policy) {
        return new JobStarted(JOB_ID, attempt, "node-a", null, TIMEOUT_MS, policy);
    }

    private static JobStarted started(int attempt) {
        return started(attempt, THREE_RETRIES);
    }

    private static JobFailed failed(int attempt) {
        return new JobFailed(JOB_ID, attempt, "boom", 10);
    }

    private static JobTimedOut runTimedOut(int attempt) {
        return new JobTimedOut(JOB_ID, attempt, TimeoutPhase.RUN);
    }

    // --- start ---

    @Test
    void a_started_attempt_starts_a_saga_for_its_job() {
        fixture.givenCurrentTime(T0)
                .whenPublishingA(started(1))
                .expectActiveSagas(1)
                .expectAssociationWith("jobId", JOB_ID)
                .expectNoDispatchedCommands();
    }

    @Test
    void a_started_attempt_gets_a_run_deadline_of_its_timeout_naming_the_attempt() {
        fixture.givenCurrentTime(T0)
                .whenPublishingA(started(2))
                .expectScheduledDeadline(TIMEOUT, deadline(2))
                .expectScheduledDeadlineWithName(TIMEOUT, "job-run-timeout")
                .expectScheduledDeadline(T0.plus(TIMEOUT), deadline(2));
    }

    @Test
    void a_new_attempt_reaching_a_live_saga_replaces_the_old_run_deadline() {
        fixture.givenCurrentTime(T0)
                .andThenAPublished(started(1))
                .whenPublishingA(started(2))
                .expectActiveSagas(1)
                .expectScheduledDeadline(TIMEOUT, deadline(2))
                .expectNoScheduledDeadline(TIMEOUT, deadline(1));
    }

    @Test
    void the_next_attempt_after_an_ended_one_starts_a_fresh_saga() {
        fixture.givenCurrentTime(T0)
                .andThenAPublished(started(1))
                .andThenAPublished(failed(1))
                .whenPublishingA(started(2))
                .expectActiveSagas(1)
                .expectScheduledDeadline(TIMEOUT, deadline(2))
                .expectNoDispatchedCommands();
    }

    // --- success ---

    @Test
    void success_cancels_the_run_deadline_and_ends_the_saga() {
        fixture.givenCurrentTime(T0)
                .andThenAPublished(started(1))
                .whenPublishingA(new JobSucceeded(JOB_ID, 1, "ok", 10))
                .expectActiveSagas(0)
                .expectNoScheduledDeadlines()
                .expectNoDispatchedCommands();
    }

    @Test
    void after_success_the_run_deadline_never_fires() {
        fixture.givenCurrentTime(T0)
                .andThenAPublished(started(1))
                .andThenAPublished(new JobSucceeded(JOB_ID, 1, "ok", 10))
                .whenTimeElapses(TIMEOUT.multipliedBy(2))
                .expectNoDispatchedCommands()
                .expectTriggeredDeadlines();
    }

    // --- failure and the retry policy ---

    @Test
    void a_failure_with_retries_left_schedules_a_retry_after_the_backoff_and_ends_the_saga() {
        fixture.givenCurrentTime(T0)
                .andThenAPublished(started(1))
                .whenPublishingA(failed(1))
                .expectDispatchedCommands(new ScheduleRetry(JOB_ID, 1, T0.plusMillis(1_000)))
                .expectActiveSagas(0)
                .expectNoScheduledDeadlines();
    }

    @Test
    void the_retry_waits_from_the_time_of_the_failure_not_of_the_start() throws Exception {
        fixture.givenCurrentTime(T0)
                .andThenAPublished(started(1))
                .andThenTimeElapses(Duration.ofMillis(1_234))
                .whenPublishingA(failed(1))
                .expectDispatchedCommands(new ScheduleRetry(JOB_ID, 1, T0.plusMillis(1_234 + 1_000)));
    }

    /**
     * The saga reads events behind their commit, seconds behind after an outage or a restart: the retry is due the
     * backoff after the failure was recorded, not after the saga read it.
     */
    @Test
    void the_retry_waits_from_the_failure_however_late_the_saga_reads_it() {
        clockAhead = Duration.ofSeconds(45);
        fixture.givenCurrentTime(T0)
                .andThenAPublished(started(1))
                .whenPublishingA(failed(1))
                .expectDispatchedCommands(new ScheduleRetry(JOB_ID, 1, T0.plusMillis(1_000)));
    }

    @Test
    void a_timed_out_attempt_is_retried_the_backoff_after_its_time_out_was_recorded() {
        clockAhead = Duration.ofSeconds(45);
        fixture.givenCurrentTime(T0)
                .andThenAPublished(started(1))
                .whenPublishingA(new JobTimedOut(JOB_ID, 1, TimeoutPhase.RUN))
                .expectDispatchedCommands(new ScheduleRetry(JOB_ID, 1, T0.plusMillis(1_000)));
    }

    @Test
    void the_third_attempt_is_retried_after_the_third_exponential_delay() {
        fixture.givenCurrentTime(T0)
                .andThenAPublished(started(3))
                .whenPublishingA(failed(3))
                .expectDispatchedCommands(new ScheduleRetry(JOB_ID, 3, T0.plusMillis(4_000)));
    }

    @Test
    void the_exponential_delay_is_capped_at_max_ms() {
        RetryPolicy policy = new RetryPolicy(10, Backoff.exponential(1_000, 10.0, 30_000));
        fixture.givenCurrentTime(T0)
                .andThenAPublished(started(4, policy))
                .whenPublishingA(failed(4))
                .expectDispatchedCommands(new ScheduleRetry(JOB_ID, 4, T0.plusMillis(30_000)));
    }

    @Test
    void explicit_delays_are_used_in_order() {
        RetryPolicy policy = new RetryPolicy(5, Backoff.delays(List.of(500L, 7_000L)));
        fixture.givenCurrentTime(T0)
                .andThenAPublished(started(2, policy))
                .whenPublishingA(failed(2))
                .expectDispatchedCommands(new ScheduleRetry(JOB_ID, 2, T0.plusMillis(7_000)));
    }

    @Test
    void the_last_explicit_delay_repeats_for_later_retries() {
        RetryPolicy policy = new RetryPolicy(5, Backoff.delays(List.of(500L, 7_000L)));
        fixture.givenCurrentTime(T0)
                .andThenAPublished(started(4, policy))
                .whenPublishingA(failed(4))
                .expectDispatchedCommands(new ScheduleRetry(JOB_ID, 4, T0.plusMillis(7_000)));
    }

    @Test
    void a_failure_of_the_last_allowed_attempt_schedules_nothing_and_ends_the_saga() {
        fixture.givenCurrentTime(T0)
                .andThenAPublished(started(4))
                .whenPublishingA(failed(4))
                .expectNoDispatchedCommands()
                .expectActiveSagas(0)
                .expectNoScheduledDeadlines();
    }

    @Test
    void with_zero_retries_the_first_failure_is_final() {
        fixture.givenCurrentTime(T0)
                .andThenAPublished(started(1, new RetryPolicy(0, Backoff.defaults())))
                .whenPublishingA(failed(1))
                .expectNoDispatchedCommands()
                .expectActiveSagas(0);
    }

    @Test
    void a_retry_the_job_refuses_is_let_go_and_the_saga_still_ends() {
        fixture.setCallbackBehavior((payload, metaData) -> {
            throw new IllegalTransitionException("job job-1 is CANCELED");
        });
        fixture.givenCurrentTime(T0)
                .andThenAPublished(started(1))
                .whenPublishingA(failed(1))
                .expectSuccessfulHandlerExecution()
                .expectDispatchedCommands(new ScheduleRetry(JOB_ID, 1, T0.plusMillis(1_000)))
                .expectActiveSagas(0)
                .expectNoScheduledDeadlines();
    }

    @Test
    void commands_the_saga_sends_name_the_scheduler_as_their_actor() {
        fixture.givenCurrentTime(T0)
                .andThenAPublished(started(1))
                .whenPublishingA(failed(1))
                .expectDispatchedCommands(new ScheduleRetry(JOB_ID, 1, T0.plusMillis(1_000)));

        List<CommandMessage<?>> sent = fixture.getCommandBus().getDispatchedCommands();
        assertThat(sent).hasSize(1);
        assertThat(sent.get(0).getMetaData()).containsEntry(Metadata.ACTOR, Metadata.SCHEDULER);
    }

    // --- run deadline and timeouts ---

    @Test
    void when_the_run_deadline_passes_the_attempt_is_timed_out() {
        fixture.givenCurrentTime(T0)
                .andThenAPublished(started(2))
                .whenTimeElapses(TIMEOUT)
                .expectTriggeredDeadlinesWithName("job-run-timeout")
                .expectTriggeredDeadlines(deadline(2))
                .expectDispatchedCommands(new TimeOutJob(JOB_ID, 2, TimeoutPhase.RUN, RAN_TOO_LONG))
                .expectActiveSagas(1);
    }

    @Test
    void just_before_the_run_deadline_nothing_is_timed_out() {
        fixture.givenCurrentTime(T0)
                .andThenAPublished(started(1))
                .whenTimeElapses(TIMEOUT.minusMillis(1))
                .expectNoDispatchedCommands()
                .expectScheduledDeadline(Duration.ofMillis(1), deadline(1));
    }

    @Test
    void a_run_deadline_that_comes_after_the_attempt_ended_is_let_go() {
        fixture.setCallbackBehavior((payload, metaData) -> {
            throw new IllegalTransitionException("job job-1 is SUCCEEDED");
        });
        fixture.givenCurrentTime(T0)
                .andThenAPublished(started(1))
                .whenTimeElapses(TIMEOUT)
                .expectSuccessfulHandlerExecution()
                .expectDispatchedCommands(new TimeOutJob(JOB_ID, 1, TimeoutPhase.RUN, RAN_TOO_LONG));
    }

    @Test
    void a_run_timeout_with_retries_left_schedules_a_retry_and_ends_the_saga() throws Exception {
        fixture.givenCurrentTime(T0)
                .andThenAPublished(started(2))
                .andThenTimeElapses(TIMEOUT)
                .whenPublishingA(runTimedOut(2))
                .expectDispatchedCommands(
                        new ScheduleRetry(JOB_ID, 2, T0.plus(TIMEOUT).plusMillis(2_000)))
                .expectActiveSagas(0)
                .expectNoScheduledDeadlines();
    }

    @Test
    void a_run_timeout_of_the_last_allowed_attempt_schedules_nothing_and_ends_the_saga() {
        fixture.givenCurrentTime(T0)
                .andThenAPublished(started(4))
                .whenPublishingA(runTimedOut(4))
                .expectNoDispatchedCommands()
                .expectActiveSagas(0);
    }

    @Test
    void a_claim_timeout_does_not_touch_the_running_attempt() {
        fixture.givenCurrentTime(T0)
                .andThenAPublished(started(1))
                .whenPublishingA(new JobTimedOut(JOB_ID, 2, TimeoutPhase.CLAIM))
                .expectNoDispatchedCommands()
                .expectActiveSagas(1)
                .expectScheduledDeadline(TIMEOUT, deadline(1));
    }

    // --- cancel ---

    @Test
    void cancel_cancels_the_run_deadline_and_ends_the_saga_without_a_retry() {
        fixture.givenCurrentTime(T0)
                .andThenAPublished(started(1))
                .whenPublishingA(new JobCanceled(JOB_ID, "stop", JobStatus.RUNNING))
                .expectActiveSagas(0)
                .expectNoScheduledDeadlines()
                .expectNoDispatchedCommands();
    }

    @Test
    void events_of_another_job_leave_this_saga_alone() {
        fixture.givenCurrentTime(T0)
                .andThenAPublished(started(1))
                .whenPublishingA(new JobSucceeded("job-2", 1, "ok", 10))
                .expectActiveSagas(1)
                .expectScheduledDeadline(TIMEOUT, deadline(1));
    }

    // --- a run deadline held up by an outage ---

    @Test
    void a_run_deadline_coming_late_waits_a_grace_period_for_the_outcome_on_its_way() {
        var given = fixture.givenCurrentTime(T0).andThenAPublished(started(1));
        // the database was out of reach when the deadline was due: it comes half a minute late
        clockAhead = Duration.ofSeconds(30);
        given.whenTimeElapses(TIMEOUT)
                .expectNoDispatchedCommands()
                .expectActiveSagas(1)
                .expectScheduledDeadline(
                        JobLifecycleSaga.GRACE,
                        new RunDeadline(
                                1,
                                T0.plus(TIMEOUT)
                                        .plus(clockAhead)
                                        .plus(JobLifecycleSaga.GRACE)
                                        .toEpochMilli(),
                                true,
                                TIMEOUT_MS));
    }

    @Test
    void the_outcome_arriving_in_the_grace_period_ends_the_saga_without_a_timeout() throws Exception {
        var given = fixture.givenCurrentTime(T0).andThenAPublished(started(1));
        clockAhead = Duration.ofSeconds(30);
        given.andThenTimeElapses(TIMEOUT)
                .whenPublishingA(new JobSucceeded(JOB_ID, 1, "ok", 10))
                .expectActiveSagas(0)
                .expectNoScheduledDeadlines()
                .expectNoDispatchedCommands();
    }

    @Test
    void after_its_grace_period_a_late_run_deadline_times_the_attempt_out() throws Exception {
        var given = fixture.givenCurrentTime(T0).andThenAPublished(started(1));
        clockAhead = Duration.ofSeconds(30);
        var graced = given.andThenTimeElapses(TIMEOUT);
        // the grace deadline comes late too: it times the attempt out all the same, it gives no second grace
        clockAhead = Duration.ofSeconds(60);
        graced.whenTimeElapses(JobLifecycleSaga.GRACE)
                .expectDispatchedCommands(new TimeOutJob(JOB_ID, 1, TimeoutPhase.RUN, RAN_TOO_LONG));
    }

    @Test
    void a_run_deadline_late_by_less_than_the_limit_times_out_at_once() {
        var given = fixture.givenCurrentTime(T0).andThenAPublished(started(1));
        clockAhead = Duration.ofMillis(JobLifecycleSaga.LATE_MS);
        given.whenTimeElapses(TIMEOUT)
                .expectDispatchedCommands(new TimeOutJob(JOB_ID, 1, TimeoutPhase.RUN, RAN_TOO_LONG));
    }

    @Test
    void a_run_deadline_stored_before_it_kept_its_due_time_reads_as_on_time() throws Exception {
        RunDeadline old =
                new com.fasterxml.jackson.databind.ObjectMapper().readValue("{\"attempt\":1}", RunDeadline.class);
        assertThat(old).isEqualTo(new RunDeadline(1, 0, false, 0));
    }
}
