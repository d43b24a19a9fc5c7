package io.axscheduler.command;

import static io.axscheduler.api.job.JobStatus.*;

import io.axscheduler.api.job.*;
import io.axscheduler.api.problem.IllegalTransitionException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.modelling.command.Repository;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class JobTest {

    private static final String JOB_ID = "job-1";
    private static final Instant NOW = Instant.parse("2026-11-30T10:00:00.000Z");
    private static final Instant LEASE = NOW.plusSeconds(30);
    private static final long TIMEOUT_MS = 5_000;
    private static final RetryPolicy POLICY = new RetryPolicy(2, Backoff.delays(List.of(100L, 200L)));

    private AggregateTestFixture<Job> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(Job.class);
        fixture.registerInjectableResource(Clock.fixed(NOW, ZoneOffset.UTC));
        fixture.registerInjectableResource(kept);
        fixture.registerAnnotatedCommandHandler(new CreatesJobs(fixture.getRepository()));
    }

    private final Kept kept = new Kept();

    /** Stands in for {@link KeptJobs}, whose row lock needs a database: a job is kept unless it is in {@code purged}. */
    static final class Kept extends KeptJobs {
        final java.util.Set<String> purged = new java.util.HashSet<>();

        Kept() {
            super(null);
        }

        @Override
        void lockOrUnknown(String jobId) {
            if (purged.contains(jobId))
                throw new org.axonframework.modelling.command.AggregateNotFoundException(jobId, "purged");
        }
    }

    /** Stands in for {@link SubmitJobHandler}, whose job-key check needs a database. */
    static final class CreatesJobs {
        private final Repository<Job> jobs;

        CreatesJobs(Repository<Job> jobs) {
            this.jobs = jobs;
        }

        @CommandHandler
        void handle(SubmitJob command) throws Exception {
            jobs.newInstance(() -> new Job(command));
        }
    }

    // --- test data ---

    private static SubmitJob submit() {
        return new SubmitJob(
                JOB_ID,
                "order-42",
                "noop",
                Map.of("orderNo", "42"),
                7,
                NOW.plusSeconds(60),
                POLICY,
                TIMEOUT_MS,
                "schedule-9",
                "billing",
                "ROUND_ROBIN");
    }

    private static JobCreated created() {
        return JobCreated.of(submit());
    }

    private static JobClaimed claimed(int attempt) {
        return new JobClaimed(JOB_ID, attempt, "node-a", LEASE);
    }

    private static JobStarted started(int attempt) {
        return new JobStarted(JOB_ID, attempt, "node-a", null, TIMEOUT_MS, POLICY);
    }

    private static JobFailed failed(int attempt) {
        return new JobFailed(JOB_ID, attempt, "boom", 12);
    }

    private static JobRetryScheduled retryScheduled(int afterAttempt) {
        return new JobRetryScheduled(JOB_ID, afterAttempt, NOW.plusMillis(100), false);
    }

    /** Events that leave a fresh job in {@code status}, having started one run where a run is needed. */
    private static List<Object> historyUpTo(JobStatus status) {
        List<Object> events = new ArrayList<>(List.of(created()));
        switch (status) {
            case WAITING -> {}
            case CLAIMED -> events.add(claimed(1));
            case RUNNING -> events.addAll(List.of(claimed(1), started(1)));
            case SUCCEEDED -> events.addAll(List.of(claimed(1), started(1), new JobSucceeded(JOB_ID, 1, "ok", 3)));
            case FAILED -> events.addAll(List.of(claimed(1), started(1), failed(1)));
            case TIMED_OUT ->
                events.addAll(List.of(claimed(1), started(1), new JobTimedOut(JOB_ID, 1, TimeoutPhase.RUN)));
            case RETRY_WAITING -> events.addAll(List.of(claimed(1), started(1), failed(1), retryScheduled(1)));
            case CANCELED -> events.addAll(List.of(claimed(1), started(1), new JobCanceled(JOB_ID, "stop", RUNNING)));
        }
        return events;
    }

    /** A job whose second attempt is running, the first having failed. */
    private static List<Object> secondAttemptRunning() {
        List<Object> events = historyUpTo(RETRY_WAITING);
        events.addAll(List.of(claimed(2), started(2)));
        return events;
    }

    // --- creation ---

    @Test
    void a_submitted_job_is_created_waiting_with_everything_it_was_given() {
        fixture.givenNoPriorActivity()
                .when(submit())
                .expectSuccessfulHandlerExecution()
                .expectEvents(created());
    }

    @Test
    void a_created_job_can_be_claimed_at_once() {
        fixture.given(created()).when(new ClaimJob(JOB_ID, "node-a", LEASE)).expectEvents(claimed(1));
    }

    // --- claim ---

    @Test
    void a_waiting_job_is_claimed_for_its_first_attempt() {
        fixture.given(historyUpTo(WAITING))
                .when(new ClaimJob(JOB_ID, "node-b", LEASE))
                .expectEvents(new JobClaimed(JOB_ID, 1, "node-b", LEASE));
    }

    @Test
    void a_retry_waiting_job_is_claimed_for_the_attempt_after_the_runs_started_so_far() {
        fixture.given(historyUpTo(RETRY_WAITING))
                .when(new ClaimJob(JOB_ID, "node-a", LEASE))
                .expectEvents(claimed(2));
    }

    @Test
    void claim_is_rejected_when_job_already_claimed() {
        fixture.given(historyUpTo(CLAIMED))
                .when(new ClaimJob(JOB_ID, "node-b", LEASE))
                .expectException(IllegalTransitionException.class)
                .expectNoEvents();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = JobStatus.class,
            names = {"RUNNING", "SUCCEEDED", "FAILED", "TIMED_OUT", "CANCELED"})
    void claim_is_rejected_when_job_is_not_waiting(JobStatus status) {
        fixture.given(historyUpTo(status))
                .when(new ClaimJob(JOB_ID, "node-a", LEASE))
                .expectException(IllegalTransitionException.class)
                .expectNoEvents();
    }

    // --- start ---

    @Test
    void the_outcome_of_an_attempt_names_the_worker_that_ran_it() {
        fixture.given(created(), claimed(1), new JobStarted(JOB_ID, 1, "node-a", "worker-7", TIMEOUT_MS, POLICY))
                .when(new SucceedJob(JOB_ID, 1, "done", 40))
                .expectEvents(new JobSucceeded(JOB_ID, 1, "done", 40, "worker-7"));
        fixture.given(created(), claimed(1), new JobStarted(JOB_ID, 1, "node-a", "worker-7", TIMEOUT_MS, POLICY))
                .when(new FailJob(JOB_ID, 1, "boom", 40))
                .expectEvents(new JobFailed(JOB_ID, 1, "boom", 40, "worker-7"));
    }

    @Test
    void the_claimed_attempt_starts_carrying_the_jobs_timeout_and_retry_policy() {
        fixture.given(historyUpTo(CLAIMED))
                .when(new StartJob(JOB_ID, 1, "node-a", "worker-7"))
                .expectEvents(new JobStarted(JOB_ID, 1, "node-a", "worker-7", TIMEOUT_MS, POLICY));
    }

    @Test
    void the_second_claimed_attempt_starts_as_attempt_two() {
        List<Object> history = historyUpTo(RETRY_WAITING);
        history.add(claimed(2));
        fixture.given(history).when(new StartJob(JOB_ID, 2, "node-a", null)).expectEvents(started(2));
    }

    @Test
    void start_is_rejected_for_another_attempt_than_the_claimed_one() {
        fixture.given(historyUpTo(CLAIMED))
                .when(new StartJob(JOB_ID, 2, "node-a", null))
                .expectException(IllegalTransitionException.class)
                .expectNoEvents();
    }

    @Test
    void start_is_rejected_when_job_is_not_claimed() {
        fixture.given(historyUpTo(WAITING))
                .when(new StartJob(JOB_ID, 1, "node-a", null))
                .expectException(IllegalTransitionException.class)
                .expectNoEvents();
    }

    @Test
    void start_is_rejected_when_the_attempt_already_runs() {
        fixture.given(historyUpTo(RUNNING))
                .when(new StartJob(JOB_ID, 1, "node-a", null))
                .expectException(IllegalTransitionException.class)
                .expectNoEvents();
    }

    @Test
    void start_is_rejected_when_the_claim_lease_already_ran_out() {
        List<Object> history = historyUpTo(CLAIMED);
        history.add(new JobTimedOut(JOB_ID, 1, TimeoutPhase.CLAIM));
        fixture.given(history)
                .when(new StartJob(JOB_ID, 1, "node-a", null))
                .expectException(IllegalTransitionException.class)
                .expectNoEvents();
    }

    // --- succeed / fail ---

    @Test
    void the_running_attempt_succeeds() {
        fixture.given(historyUpTo(RUNNING))
                .when(new SucceedJob(JOB_ID, 1, "done", 40))
                .expectEvents(new JobSucceeded(JOB_ID, 1, "done", 40));
    }

    @Test
    void the_running_attempt_fails() {
        fixture.given(historyUpTo(RUNNING))
                .when(new FailJob(JOB_ID, 1, "boom", 40))
                .expectEvents(new JobFailed(JOB_ID, 1, "boom", 40));
    }

    @Test
    void a_late_success_of_an_older_attempt_is_refused() {
        fixture.given(secondAttemptRunning())
                .when(new SucceedJob(JOB_ID, 1, "late", 40))
                .expectException(IllegalTransitionException.class)
                .expectNoEvents();
    }

    @Test
    void a_late_failure_of_an_older_attempt_is_refused() {
        fixture.given(secondAttemptRunning())
                .when(new FailJob(JOB_ID, 1, "late", 40))
                .expectException(IllegalTransitionException.class)
                .expectNoEvents();
    }

    @Test
    void an_outcome_for_an_attempt_that_never_started_is_refused() {
        fixture.given(historyUpTo(RUNNING))
                .when(new SucceedJob(JOB_ID, 2, "future", 40))
                .expectException(IllegalTransitionException.class)
                .expectNoEvents();
    }

    @Test
    void success_is_refused_when_the_job_is_only_claimed() {
        fixture.given(historyUpTo(CLAIMED))
                .when(new SucceedJob(JOB_ID, 1, "done", 40))
                .expectException(IllegalTransitionException.class)
                .expectNoEvents();
    }

    @Test
    void failure_is_refused_when_the_job_is_only_claimed() {
        fixture.given(historyUpTo(CLAIMED))
                .when(new FailJob(JOB_ID, 1, "boom", 40))
                .expectException(IllegalTransitionException.class)
                .expectNoEvents();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = JobStatus.class,
            names = {"SUCCEEDED", "FAILED", "TIMED_OUT", "CANCELED"})
    void an_outcome_after_the_attempt_ended_is_refused(JobStatus status) {
        fixture.given(historyUpTo(status))
                .when(new SucceedJob(JOB_ID, 1, "done", 40))
                .expectException(IllegalTransitionException.class)
                .expectNoEvents();
        fixture.given(historyUpTo(status))
                .when(new FailJob(JOB_ID, 1, "boom", 40))
                .expectException(IllegalTransitionException.class)
                .expectNoEvents();
    }

    // --- timeouts ---

    @Test
    void a_claim_that_never_started_times_out_back_to_waiting() {
        fixture.given(historyUpTo(CLAIMED))
                .when(new TimeOutJob(JOB_ID, 1, TimeoutPhase.CLAIM))
                .expectEvents(new JobTimedOut(JOB_ID, 1, TimeoutPhase.CLAIM));
    }

    @Test
    void a_claim_timeout_does_not_use_an_attempt() {
        List<Object> history = historyUpTo(CLAIMED);
        history.add(new JobTimedOut(JOB_ID, 1, TimeoutPhase.CLAIM));
        fixture.given(history)
                .when(new ClaimJob(JOB_ID, "node-b", LEASE))
                .expectEvents(new JobClaimed(JOB_ID, 1, "node-b", LEASE));
    }

    @Test
    void a_claim_timeout_of_a_retry_claim_does_not_use_an_attempt_either() {
        List<Object> history = historyUpTo(RETRY_WAITING);
        history.addAll(List.of(claimed(2), new JobTimedOut(JOB_ID, 2, TimeoutPhase.CLAIM)));
        fixture.given(history)
                .when(new ClaimJob(JOB_ID, "node-b", LEASE))
                .expectEvents(new JobClaimed(JOB_ID, 2, "node-b", LEASE));
    }

    @Test
    void a_claim_timeout_is_refused_once_the_attempt_started() {
        fixture.given(historyUpTo(RUNNING))
                .when(new TimeOutJob(JOB_ID, 1, TimeoutPhase.CLAIM))
                .expectException(IllegalTransitionException.class)
                .expectNoEvents();
    }

    @Test
    void a_claim_timeout_for_another_attempt_than_the_claimed_one_is_refused() {
        fixture.given(historyUpTo(CLAIMED))
                .when(new TimeOutJob(JOB_ID, 2, TimeoutPhase.CLAIM))
                .expectException(IllegalTransitionException.class)
                .expectNoEvents();
    }

    @Test
    void a_claim_handed_back_before_its_start_waits_again_without_using_an_attempt() {
        fixture.given(historyUpTo(CLAIMED))
                .when(new HandBackJob(JOB_ID, 1, HandBackReason.NO_WORKER_TOOK_IT))
                .expectEvents(new JobHandedBack(JOB_ID, 1, HandBackReason.NO_WORKER_TOOK_IT));
        List<Object> history = historyUpTo(CLAIMED);
        history.add(new JobHandedBack(JOB_ID, 1, HandBackReason.NO_WORKER));
        fixture.given(history)
                .when(new ClaimJob(JOB_ID, "node-b", LEASE))
                .expectEvents(new JobClaimed(JOB_ID, 1, "node-b", LEASE));
    }

    @Test
    void a_hand_back_is_refused_once_the_attempt_started_or_for_another_attempt() {
        fixture.given(historyUpTo(RUNNING))
                .when(new HandBackJob(JOB_ID, 1, HandBackReason.NODE_BUSY))
                .expectException(IllegalTransitionException.class)
                .expectNoEvents();
        fixture.given(historyUpTo(CLAIMED))
                .when(new HandBackJob(JOB_ID, 2, HandBackReason.NODE_BUSY))
                .expectException(IllegalTransitionException.class)
                .expectNoEvents();
    }

    @Test
    void the_running_attempt_times_out() {
        fixture.given(historyUpTo(RUNNING))
                .when(new TimeOutJob(JOB_ID, 1, TimeoutPhase.RUN))
                .expectEvents(new JobTimedOut(JOB_ID, 1, TimeoutPhase.RUN));
    }

    @Test
    void a_run_timeout_of_an_older_attempt_is_refused() {
        fixture.given(secondAttemptRunning())
                .when(new TimeOutJob(JOB_ID, 1, TimeoutPhase.RUN))
                .expectException(IllegalTransitionException.class)
                .expectNoEvents();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = JobStatus.class,
            names = {"WAITING", "CLAIMED", "SUCCEEDED", "FAILED", "TIMED_OUT", "CANCELED", "RETRY_WAITING"})
    void a_run_timeout_is_refused_when_nothing_runs(JobStatus status) {
        fixture.given(historyUpTo(status))
                .when(new TimeOutJob(JOB_ID, 1, TimeoutPhase.RUN))
                .expectException(IllegalTransitionException.class)
                .expectNoEvents();
    }

    // --- retry by policy ---

    @Test
    void the_policy_retries_a_failed_attempt() {
        Instant runAt = NOW.plusMillis(100);
        fixture.given(historyUpTo(FAILED))
                .when(new ScheduleRetry(JOB_ID, 1, runAt))
                .expectEvents(new JobRetryScheduled(JOB_ID, 1, runAt, false));
    }

    @Test
    void the_policy_retries_a_timed_out_attempt() {
        Instant runAt = NOW.plusMillis(100);
        fixture.given(historyUpTo(TIMED_OUT))
                .when(new ScheduleRetry(JOB_ID, 1, runAt))
                .expectEvents(new JobRetryScheduled(JOB_ID, 1, runAt, false));
    }

    @Test
    void the_policy_never_retries_a_job_an_operator_canceled() {
        fixture.given(historyUpTo(CANCELED))
                .when(new ScheduleRetry(JOB_ID, 1, NOW))
                .expectException(IllegalTransitionException.class)
                .expectNoEvents();
    }

    @Test
    void the_policy_retry_of_an_older_attempt_is_refused() {
        List<Object> history = secondAttemptRunning();
        history.add(failed(2));
        fixture.given(history)
                .when(new ScheduleRetry(JOB_ID, 1, NOW))
                .expectException(IllegalTransitionException.class)
                .expectNoEvents();
    }

    @Test
    void the_policy_retry_is_refused_when_the_retry_is_already_scheduled() {
        fixture.given(historyUpTo(RETRY_WAITING))
                .when(new ScheduleRetry(JOB_ID, 1, NOW))
                .expectException(IllegalTransitionException.class)
                .expectNoEvents();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = JobStatus.class,
            names = {"WAITING", "CLAIMED", "RUNNING", "SUCCEEDED"})
    void the_policy_retry_is_refused_when_the_attempt_did_not_fail_or_time_out(JobStatus status) {
        fixture.given(historyUpTo(status))
                .when(new ScheduleRetry(JOB_ID, 1, NOW))
                .expectException(IllegalTransitionException.class)
                .expectNoEvents();
    }

    // --- cancel ---

    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = JobStatus.class,
            names = {"WAITING", "CLAIMED", "RUNNING", "RETRY_WAITING"})
    void a_job_that_has_not_ended_can_be_canceled(JobStatus status) {
        fixture.given(historyUpTo(status))
                .when(new CancelJob(JOB_ID, "no longer needed"))
                .expectEvents(new JobCanceled(JOB_ID, "no longer needed", status));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = JobStatus.class,
            names = {"FAILED", "TIMED_OUT"})
    void a_job_whose_attempt_ended_with_a_retry_to_come_can_be_canceled_and_is_not_retried(JobStatus status) {
        // the first of three attempts: until the saga schedules the retry the job is FAILED (or TIMED_OUT), not done
        fixture.given(historyUpTo(status))
                .when(new CancelJob(JOB_ID, "stop retrying"))
                .expectEvents(new JobCanceled(JOB_ID, "stop retrying", status));
        List<Object> canceled = historyUpTo(status);
        canceled.add(new JobCanceled(JOB_ID, "stop retrying", status));
        fixture.given(canceled)
                .when(new ScheduleRetry(JOB_ID, 1, NOW.plusMillis(100)))
                .expectException(IllegalTransitionException.class)
                .expectNoEvents();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = JobStatus.class,
            names = {"SUCCEEDED", "CANCELED"})
    void cancel_is_rejected_when_job_already_ended(JobStatus status) {
        fixture.given(historyUpTo(status))
                .when(new CancelJob(JOB_ID, "too late"))
                .expectException(IllegalTransitionException.class)
                .expectNoEvents();
    }

    @Test
    void a_job_whose_last_attempt_failed_cannot_be_canceled() {
        List<Object> history = historyUpTo(RETRY_WAITING);
        history.addAll(
                List.of(claimed(2), started(2), failed(2), retryScheduled(2), claimed(3), started(3), failed(3)));
        fixture.given(history)
                .when(new CancelJob(JOB_ID, "too late"))
                .expectException(IllegalTransitionException.class)
                .expectNoEvents();
    }

    // --- manual retry ---

    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = JobStatus.class,
            names = {"FAILED", "TIMED_OUT", "CANCELED"})
    void an_operator_re_runs_an_ended_job_now(JobStatus status) {
        fixture.given(historyUpTo(status))
                .when(new RetryJob(JOB_ID))
                .expectEvents(new JobRetryScheduled(JOB_ID, 1, NOW, true));
    }

    @Test
    void a_re_run_of_a_job_deleted_past_its_retention_is_refused_as_an_unknown_job() {
        kept.purged.add(JOB_ID);
        fixture.given(historyUpTo(JobStatus.FAILED))
                .when(new RetryJob(JOB_ID))
                .expectException(org.axonframework.modelling.command.AggregateNotFoundException.class)
                .expectNoEvents();
    }

    @Test
    void a_job_canceled_before_it_ever_ran_is_re_run_after_attempt_zero_and_its_next_claim_is_attempt_one() {
        List<Object> history = historyUpTo(WAITING);
        history.add(new JobCanceled(JOB_ID, "stop", WAITING));
        fixture.given(history).when(new RetryJob(JOB_ID)).expectEvents(new JobRetryScheduled(JOB_ID, 0, NOW, true));

        history.add(new JobRetryScheduled(JOB_ID, 0, NOW, true));
        fixture.given(history).when(new ClaimJob(JOB_ID, "node-a", LEASE)).expectEvents(claimed(1));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = JobStatus.class,
            names = {"WAITING", "CLAIMED", "RUNNING", "RETRY_WAITING", "SUCCEEDED"})
    void an_operator_re_run_is_refused_unless_the_job_failed_timed_out_or_was_canceled(JobStatus status) {
        fixture.given(historyUpTo(status))
                .when(new RetryJob(JOB_ID))
                .expectException(IllegalTransitionException.class)
                .expectNoEvents();
    }
}
