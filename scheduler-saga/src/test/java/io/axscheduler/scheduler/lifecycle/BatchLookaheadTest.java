package io.axscheduler.scheduler.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.axscheduler.api.job.JobCanceled;
import io.axscheduler.api.job.JobStarted;
import io.axscheduler.api.job.JobStatus;
import io.axscheduler.api.job.JobSucceeded;
import io.axscheduler.api.job.JobTimedOut;
import io.axscheduler.api.job.RetryPolicy;
import io.axscheduler.api.job.TimeoutPhase;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.messaging.unitofwork.BatchingUnitOfWork;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.junit.jupiter.api.Test;

class BatchLookaheadTest {

    @Test
    void an_attempt_whose_end_follows_in_the_batch_is_seen_ending() throws Exception {
        Map<String, Boolean> ends = lookAheadAtEachStart(
                started("a", 1),
                started("b", 1),
                started("c", 2),
                started("d", 1),
                new JobSucceeded("a", 1, null, 1, "in-process"),
                new JobSucceeded("c", 1, null, 1, "in-process"),
                new JobTimedOut("d", 1, TimeoutPhase.CLAIM));

        assertThat(ends)
                .containsEntry("a", true)
                .containsEntry("b", false) // nothing of b follows
                .containsEntry("c", false) // an end of another attempt
                .containsEntry("d", false); // a lapsed claim is not the end of a run
    }

    @Test
    void a_run_timeout_or_a_cancel_after_the_start_ends_it_and_an_end_before_it_does_not() throws Exception {
        Map<String, Boolean> ends = lookAheadAtEachStart(
                new JobSucceeded("c", 1, null, 1, "in-process"),
                started("a", 1),
                started("b", 3),
                started("c", 1),
                new JobTimedOut("a", 1, TimeoutPhase.RUN),
                new JobCanceled("b", "stop", JobStatus.RUNNING));

        assertThat(ends).containsEntry("a", true).containsEntry("b", true).containsEntry("c", false);
    }

    @Test
    void only_a_success_of_that_attempt_or_a_cancel_ends_it_before_the_batch_a_failure_still_decides_a_retry() {
        assertThat(BatchLookahead.over(2, "SUCCEEDED", 2)).isTrue();
        assertThat(BatchLookahead.over(1, "SUCCEEDED", 2)).isFalse(); // attempt 1 failed: its end decides a retry
        assertThat(BatchLookahead.over(2, "CANCELED", 2)).isTrue();
        assertThat(BatchLookahead.over(1, "CANCELED", 2)).isTrue();
        assertThat(BatchLookahead.over(2, "CANCELED", 1)).isFalse();
        for (String status : List.of("FAILED", "TIMED_OUT", "RUNNING", "RETRY_WAITING", "WAITING", "CLAIMED"))
            assertThat(BatchLookahead.over(1, status, 1)).as(status).isFalse();
    }

    @Test
    void outside_a_batch_nothing_is_known_to_follow() {
        assertThat(BatchLookahead.attemptEndsLater("a", 1)).isFalse();
    }

    private static JobStarted started(String jobId, int attempt) {
        return new JobStarted(jobId, attempt, "node-a", "in-process", 60_000, RetryPolicy.defaults());
    }

    private static Map<String, Boolean> lookAheadAtEachStart(Object... events) throws Exception {
        List<EventMessage<?>> batch = Arrays.stream(events)
                .<EventMessage<?>>map(GenericEventMessage::asEventMessage)
                .toList();
        Map<String, Boolean> ends = new LinkedHashMap<>();
        new BatchingUnitOfWork<>(batch).executeWithResult(() -> {
            if (CurrentUnitOfWork.get().getMessage().getPayload() instanceof JobStarted s) {
                ends.put(s.jobId(), BatchLookahead.attemptEndsLater(s.jobId(), s.attempt()));
            }
            return null;
        });
        return ends;
    }
}
