package io.axscheduler.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.axscheduler.api.spi.JobContext;
import io.axscheduler.api.spi.JobHandler;
import io.axscheduler.api.worker.JobCallback;
import io.axscheduler.api.worker.PushAnswer;
import io.axscheduler.api.worker.PushState;
import io.axscheduler.api.worker.PushedJob;
import io.axscheduler.api.worker.StopRun;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WorkerRunsTest {

    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicInteger executions = new AtomicInteger();
    private final Queue<JobCallback> reported = new ConcurrentLinkedQueue<>();
    private final JobHandler blocking = new JobHandler() {
        public String jobType() {
            return "block";
        }

        public String execute(JobContext context) throws Exception {
            executions.incrementAndGet();
            // released by the test, or stopped by the scheduler
            for (long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                    !release.await(10, TimeUnit.MILLISECONDS); ) {
                if (context.isCancelled()) return "stopped";
                if (System.nanoTime() > end) throw new IllegalStateException("never released");
            }
            return "ran " + context.params().get("shardIndex") + "/"
                    + context.params().get("shardTotal");
        }
    };
    private final WorkerRuns runs = new WorkerRuns(
            List.of(blocking),
            new AxWorkerProperties("http://scheduler", "app", null, 2, 1000, 1000, 0, 100, 1, null, "default"),
            new WorkerRuns.Reporter() {
                public void report(JobCallback outcome) {
                    reported.add(outcome);
                }

                public String workerId() {
                    return "w1";
                }
            });

    @AfterEach
    void stop() {
        release.countDown();
        runs.cancelAll();
    }

    private static PushedJob push(String jobId, int attempt) {
        return new PushedJob(jobId, attempt, "block", jobId, Map.of(), 10_000, 0, 1);
    }

    private static void await(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("not reached");
            Thread.sleep(10);
        }
    }

    @Test
    void a_push_is_answered_at_once_and_runs_on_the_pool() {
        assertThat(runs.accept(push("j1", 1)).state()).isEqualTo(PushState.ACCEPTED);
        assertThat(runs.inFlight()).isEqualTo(1);
        release.countDown();
    }

    @Test
    void a_repeated_push_of_a_running_attempt_is_not_run_again() throws Exception {
        runs.accept(push("j1", 1));
        await(() -> executions.get() == 1);
        assertThat(runs.accept(push("j1", 1)).state()).isEqualTo(PushState.RUNNING);
        release.countDown();
        await(() -> reported.size() == 1);
        assertThat(executions.get()).isEqualTo(1);
    }

    @Test
    void a_repeated_push_of_an_ended_attempt_answers_its_outcome_and_reports_it_again_without_running()
            throws Exception {
        release.countDown();
        runs.accept(push("j1", 1));
        await(() -> reported.size() == 1);
        PushAnswer again = runs.accept(push("j1", 1));
        assertThat(again.state()).isEqualTo(PushState.DONE);
        assertThat(again.outcome().succeeded()).isTrue();
        assertThat(again.outcome().result()).isEqualTo("ran 0/1");
        assertThat(reported).hasSize(2);
        assertThat(executions.get()).isEqualTo(1);
    }

    @Test
    void a_stopping_worker_takes_no_new_push_but_answers_a_repeated_one_with_what_it_knows() throws Exception {
        runs.accept(push("j1", 1));
        await(() -> executions.get() == 1);
        runs.stop(0);
        // the scheduler asks again after a lost answer: BUSY here would send the job to another worker
        assertThat(runs.accept(push("j1", 1)).state()).isEqualTo(PushState.RUNNING);
        assertThat(runs.accept(push("j2", 1)).state()).isEqualTo(PushState.BUSY);
        release.countDown();
        await(() -> reported.size() == 1);
        assertThat(runs.accept(push("j1", 1)).state()).isEqualTo(PushState.DONE);
        assertThat(executions.get()).isEqualTo(1);
    }

    @Test
    void the_next_attempt_of_the_same_job_runs() throws Exception {
        release.countDown();
        runs.accept(push("j1", 1));
        await(() -> reported.size() == 1);
        assertThat(runs.accept(push("j1", 2)).state()).isEqualTo(PushState.ACCEPTED);
        await(() -> executions.get() == 2);
    }

    @Test
    void a_push_beyond_capacity_is_answered_busy_and_not_remembered() throws Exception {
        runs.accept(push("j1", 1));
        runs.accept(push("j2", 1));
        assertThat(runs.accept(push("j3", 1)).state()).isEqualTo(PushState.BUSY);
        release.countDown();
        await(() -> reported.size() == 2);
        assertThat(runs.accept(push("j3", 1)).state()).isEqualTo(PushState.ACCEPTED);
    }

    @Test
    void the_schedulers_stop_tells_the_running_handler_once_and_leaves_other_runs_and_ended_ones() throws Exception {
        runs.accept(push("j1", 1));
        runs.accept(push("j2", 1));
        await(() -> executions.get() == 2);
        assertThat(runs.stopRun(new StopRun("j1", 2, 0, "the job was canceled")))
                .as("another attempt")
                .isFalse();
        assertThat(runs.stopRun(new StopRun("j1", 1, 0, "the job was canceled")))
                .isTrue();
        assertThat(runs.stopRun(new StopRun("j1", 1, 0, "the job was canceled")))
                .as("told already")
                .isFalse();
        await(() -> reported.size() == 1);
        assertThat(reported.peek().jobId()).isEqualTo("j1");
        assertThat(reported.peek().result()).isEqualTo("stopped");
        assertThat(runs.stopRun(new StopRun("j1", 1, 0, "the job was canceled")))
                .as("ended")
                .isFalse();
        assertThat(runs.inFlight()).as("j2 runs on").isEqualTo(1);
        release.countDown();
        await(() -> reported.size() == 2);
    }

    @Test
    void an_unknown_job_type_is_reported_as_a_failure() throws Exception {
        runs.accept(new PushedJob("j9", 1, "nope", "j9", Map.of(), 10_000, 0, 1));
        await(() -> reported.size() == 1);
        assertThat(reported.peek().succeeded()).isFalse();
        assertThat(reported.peek().error()).contains("no handler for job type 'nope'");
    }
}
