package io.axscheduler.query.job;

import static io.axscheduler.query.job.JobEvents.CREATED_AT;
import static io.axscheduler.query.job.JobEvents.JOB_ID;
import static io.axscheduler.query.job.JobEvents.RUN_AT;
import static io.axscheduler.query.job.JobEvents.at;
import static io.axscheduler.query.job.JobEvents.created;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.axscheduler.api.job.HandBackReason;
import io.axscheduler.api.job.JobCanceled;
import io.axscheduler.api.job.JobClaimed;
import io.axscheduler.api.job.JobFailed;
import io.axscheduler.api.job.JobHandedBack;
import io.axscheduler.api.job.JobRetryScheduled;
import io.axscheduler.api.job.JobStarted;
import io.axscheduler.api.job.JobStatus;
import io.axscheduler.api.job.JobSucceeded;
import io.axscheduler.api.job.JobTimedOut;
import io.axscheduler.api.job.RetryPolicy;
import io.axscheduler.api.job.TimeoutPhase;
import io.axscheduler.api.query.JobView;
import io.axscheduler.testing.AJob;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class JobStateFoldTest {

    private static final Instant LEASE = at(30);

    private static JobView fold(Object... payloadsAfterCreation) {
        List<TimedEvent> events = new ArrayList<>();
        events.add(new TimedEvent(created(), CREATED_AT));
        for (int i = 0; i < payloadsAfterCreation.length; i++) {
            events.add(new TimedEvent(payloadsAfterCreation[i], at(i + 1)));
        }
        return JobStateFold.fold(events);
    }

    private static JobClaimed claimed(int attempt) {
        return new JobClaimed(JOB_ID, attempt, "node-a", LEASE);
    }

    private static JobStarted started(int attempt) {
        return new JobStarted(JOB_ID, attempt, "node-a", "worker-7", 30_000, RetryPolicy.defaults());
    }

    @Test
    void a_created_job_waits_with_the_values_it_was_submitted_with() {
        JobView view = fold();

        assertThat(view)
                .isEqualTo(new JobView(
                        JOB_ID,
                        "order-42-close",
                        "noop",
                        JobStatus.WAITING,
                        7,
                        RUN_AT,
                        0,
                        3,
                        null,
                        null,
                        CREATED_AT,
                        CREATED_AT,
                        null,
                        null,
                        "schedule-9",
                        "default"));
    }

    @Test
    void a_job_keeps_the_namespace_it_was_created_in_through_its_events() {
        AJob job = AJob.aJob().withNamespace("team-a");

        JobView view = JobStateFold.fold(List.of(
                new TimedEvent(job.created(), CREATED_AT),
                new TimedEvent(job.claimed(1), at(1)),
                new TimedEvent(job.started(1), at(2))));

        assertThat(view.namespace()).isEqualTo("team-a");
        assertThat(view.status()).isEqualTo(JobStatus.RUNNING);
    }

    @Test
    void a_claim_records_the_node_and_moves_updated_at_but_not_the_attempt() {
        JobView view = fold(claimed(1));

        assertThat(view.status()).isEqualTo(JobStatus.CLAIMED);
        assertThat(view.node()).isEqualTo("node-a");
        assertThat(view.attempt()).isZero();
        assertThat(view.updatedAt()).isEqualTo(at(1));
        assertThat(view.createdAt()).isEqualTo(CREATED_AT);
    }

    @Test
    void a_start_runs_the_job_with_the_started_attempt_node_and_worker() {
        JobView view = fold(claimed(1), started(1));

        assertThat(view.status()).isEqualTo(JobStatus.RUNNING);
        assertThat(view.attempt()).isEqualTo(1);
        assertThat(view.node()).isEqualTo("node-a");
        assertThat(view.worker()).isEqualTo("worker-7");
    }

    @Test
    void a_success_keeps_the_result() {
        JobView view = fold(claimed(1), started(1), new JobSucceeded(JOB_ID, 1, "closed order 42", 12));

        assertThat(view.status()).isEqualTo(JobStatus.SUCCEEDED);
        assertThat(view.result()).isEqualTo("closed order 42");
        assertThat(view.updatedAt()).isEqualTo(at(3));
    }

    @Test
    void a_failure_keeps_the_error() {
        JobView view = fold(claimed(1), started(1), new JobFailed(JOB_ID, 1, "connection refused", 40));

        assertThat(view.status()).isEqualTo(JobStatus.FAILED);
        assertThat(view.lastError()).isEqualTo("connection refused");
    }

    @Test
    void errors_and_results_longer_than_their_columns_are_cut_to_2000_characters() {
        String huge = "x".repeat(5_000);

        assertThat(fold(claimed(1), started(1), new JobFailed(JOB_ID, 1, huge, 1))
                        .lastError())
                .hasSize(2_000);
        assertThat(fold(claimed(1), started(1), new JobSucceeded(JOB_ID, 1, huge, 1))
                        .result())
                .hasSize(2_000);
    }

    @Test
    void a_lapsed_claim_sends_the_job_back_to_waiting_without_a_node() {
        JobView view = fold(claimed(1), new JobTimedOut(JOB_ID, 1, TimeoutPhase.CLAIM));

        assertThat(view.status()).isEqualTo(JobStatus.WAITING);
        assertThat(view.node()).isNull();
        assertThat(view.lastError()).isNull();
    }

    @Test
    void a_claim_handed_back_sends_the_job_back_to_waiting_without_a_node() {
        JobView view = fold(claimed(1), new JobHandedBack(JOB_ID, 1, HandBackReason.NO_WORKER));

        assertThat(view.status()).isEqualTo(JobStatus.WAITING);
        assertThat(view.node()).isNull();
        assertThat(view.attempt()).isZero();
        assertThat(view.lastError()).isNull();
    }

    @Test
    void a_run_timeout_ends_the_attempt_as_timed_out_and_says_which_attempt() {
        JobView view = fold(claimed(1), started(1), new JobTimedOut(JOB_ID, 1, TimeoutPhase.RUN));

        assertThat(view.status()).isEqualTo(JobStatus.TIMED_OUT);
        assertThat(view.lastError()).isEqualTo("attempt 1 timed out");
    }

    @Test
    void an_attempt_given_up_with_its_worker_says_why() {
        JobView view = fold(
                claimed(1),
                started(1),
                new JobTimedOut(JOB_ID, 1, TimeoutPhase.RUN, "its worker w-1 deregistered while running it"));

        assertThat(view.status()).isEqualTo(JobStatus.TIMED_OUT);
        assertThat(view.lastError()).isEqualTo("attempt 1 timed out: its worker w-1 deregistered while running it");
    }

    @Test
    void a_scheduled_retry_waits_for_its_new_run_at_and_the_next_run_counts_as_attempt_two() {
        Instant retryAt = at(120);

        JobView waiting = fold(
                claimed(1),
                started(1),
                new JobFailed(JOB_ID, 1, "boom", 1),
                new JobRetryScheduled(JOB_ID, 1, retryAt, false));
        JobView rerun = fold(
                claimed(1),
                started(1),
                new JobFailed(JOB_ID, 1, "boom", 1),
                new JobRetryScheduled(JOB_ID, 1, retryAt, false),
                claimed(2),
                started(2));

        assertThat(waiting.status()).isEqualTo(JobStatus.RETRY_WAITING);
        assertThat(waiting.runAt()).isEqualTo(retryAt);
        assertThat(rerun.status()).isEqualTo(JobStatus.RUNNING);
        assertThat(rerun.attempt()).isEqualTo(2);
    }

    @Test
    void a_cancel_ends_the_job_as_canceled() {
        JobView view = fold(claimed(1), new JobCanceled(JOB_ID, "operator said so", JobStatus.CLAIMED));

        assertThat(view.status()).isEqualTo(JobStatus.CANCELED);
        assertThat(view.updatedAt()).isEqualTo(at(2));
    }

    @Test
    void a_job_the_scheduler_gave_up_has_the_reason_as_its_error_and_an_operators_cancel_does_not() {
        JobCanceled cancel = new JobCanceled(JOB_ID, "no worker of executorApp 'x' …", JobStatus.WAITING);
        JobView givenUp = JobStateFold.fold(List.of(
                new TimedEvent(created(), CREATED_AT),
                new TimedEvent(cancel, at(1), io.axscheduler.api.Metadata.SCHEDULER)));
        assertThat(givenUp.lastError()).isEqualTo("given up by the scheduler: no worker of executorApp 'x' …");
        JobView canceled = JobStateFold.fold(
                List.of(new TimedEvent(created(), CREATED_AT), new TimedEvent(cancel, at(1), "key:ops")));
        assertThat(canceled.lastError()).isNull();
    }

    @Test
    void an_event_the_fold_does_not_know_leaves_the_view_as_it_was() {
        JobView before = fold(claimed(1));
        JobView after = fold(claimed(1), "some future event");

        assertThat(after).isEqualTo(before);
    }

    @Test
    void a_history_that_does_not_start_with_job_created_is_refused() {
        assertThatThrownBy(() -> JobStateFold.fold(List.of(new TimedEvent(claimed(1), CREATED_AT))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> JobStateFold.fold(List.of())).isInstanceOf(IllegalArgumentException.class);
    }
}
