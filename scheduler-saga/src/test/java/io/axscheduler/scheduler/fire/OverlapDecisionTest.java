package io.axscheduler.scheduler.fire;

import static io.axscheduler.api.schedule.OverlapPolicy.ALLOW;
import static io.axscheduler.api.schedule.OverlapPolicy.SKIP_IF_RUNNING;
import static io.axscheduler.scheduler.fire.OverlapDecision.FIRE;
import static io.axscheduler.scheduler.fire.OverlapDecision.SKIP;
import static io.axscheduler.scheduler.fire.OverlapDecision.decide;
import static io.axscheduler.scheduler.fire.OverlapDecision.skipReason;
import static org.assertj.core.api.Assertions.assertThat;

import io.axscheduler.api.job.JobStatus;
import io.axscheduler.api.schedule.OverlapPolicy;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class OverlapDecisionTest {

    private static final LastJob RUNNING = new LastJob("j", JobStatus.RUNNING, 1, 3);
    private static final LastJob WAITING = new LastJob("j", JobStatus.WAITING, 0, 3);
    private static final LastJob DONE = new LastJob("j", JobStatus.SUCCEEDED, 1, 3);
    private static final LastJob FAILED_WITH_RETRY_LEFT = new LastJob("j", JobStatus.FAILED, 1, 3);
    private static final LastJob FAILED_FOR_GOOD = new LastJob("j", JobStatus.FAILED, 4, 3);
    private static final Instant QUEUED = Instant.parse("2026-05-01T10:00:00Z");

    @Test
    void allow_always_fires() {
        assertThat(decide(ALLOW, RUNNING, null)).isEqualTo(FIRE);
        assertThat(decide(ALLOW, RUNNING, QUEUED)).isEqualTo(FIRE);
    }

    @Test
    void skip_if_running_skips_while_the_last_job_waits_runs_or_awaits_a_retry() {
        assertThat(decide(SKIP_IF_RUNNING, RUNNING, null)).isEqualTo(SKIP);
        assertThat(decide(SKIP_IF_RUNNING, WAITING, null)).isEqualTo(SKIP);
        assertThat(decide(SKIP_IF_RUNNING, FAILED_WITH_RETRY_LEFT, null)).isEqualTo(SKIP);
        assertThat(decide(SKIP_IF_RUNNING, DONE, null)).isEqualTo(FIRE);
        assertThat(decide(SKIP_IF_RUNNING, FAILED_FOR_GOOD, null)).isEqualTo(FIRE);
        assertThat(decide(SKIP_IF_RUNNING, null, null)).isEqualTo(FIRE);
        assertThat(skipReason(SKIP_IF_RUNNING, RUNNING))
                .isEqualTo("previous job j is still RUNNING; overlap policy SKIP_IF_RUNNING");
        // a failed job with a retry to come has not ended: the reason says so rather than "still FAILED"
        assertThat(skipReason(SKIP_IF_RUNNING, FAILED_WITH_RETRY_LEFT))
                .isEqualTo("previous job j has not ended: attempt 1 FAILED and a retry is to come;"
                        + " overlap policy SKIP_IF_RUNNING");
    }

    @Test
    void queue_holds_one_fire_behind_the_running_job_and_skips_further_ones() {
        assertThat(decide(OverlapPolicy.QUEUE, RUNNING, null)).isEqualTo(OverlapDecision.QUEUE);
        assertThat(decide(OverlapPolicy.QUEUE, RUNNING, QUEUED)).isEqualTo(SKIP);
        assertThat(decide(OverlapPolicy.QUEUE, DONE, null)).isEqualTo(FIRE);
        assertThat(skipReason(OverlapPolicy.QUEUE, RUNNING)).contains("already queued");
    }
}
