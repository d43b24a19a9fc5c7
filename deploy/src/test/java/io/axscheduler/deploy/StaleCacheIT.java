package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.axscheduler.api.job.FailJob;
import io.axscheduler.api.job.SucceedJob;
import io.axscheduler.api.job.TimeOutJob;
import io.axscheduler.api.job.TimeoutPhase;
import io.axscheduler.command.AggregateCaches;
import io.axscheduler.command.CommittedOnlyCache;
import io.axscheduler.scheduler.SchedulerCommands;
import io.axscheduler.scheduler.claim.ScanDueJobs;
import io.axscheduler.scheduler.fire.ScanSchedules;
import io.axscheduler.scheduler.remote.WorkerCommands;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Behind a load balancer the node that takes a job's submit is seldom the one that runs it: the first keeps the job in
 * its cache as it made it, waiting, while the other claims, starts and ends it. A command this first node then
 * decides on that stale state must be decided again on the store's: a run deadline firing there times the attempt
 * out (it was refused as "not running", and the attempt ran past its timeout for good), an operator's retry there is
 * taken at once (it was a 409 "is WAITING").
 */
class StaleCacheIT {

    /** A job that runs a minute, far within its timeout, and is not retried. */
    static final String SLEEPING =
            "{\"jobType\":\"sleep\",\"params\":{\"ms\":60000},\"timeoutMs\":600000,\"maxRetries\":0}";

    static Node a;
    static Node b;

    @BeforeAll
    static void start() {
        String db = TestDatabase.freshDatabase("stale_cache");
        a = Node.start(db, "node-a");
        b = Node.start(db, "node-b");
        // a takes submits and runs nothing: b claims, starts and ends every job
        a.bean(ScanDueJobs.class).pauseScanning();
        a.bean(ScanSchedules.class).pauseScanning();
    }

    @AfterAll
    static void stop() {
        if (b != null) b.close();
        if (a != null) a.close();
    }

    /**
     * A job submitted to node-a that node-b has moved to {@code status}, while node-a still holds it in its cache as it
     * made it (the case under test).
     */
    private static String madeOnAUntil(String body, String status) {
        String job = a.api.submit(body);
        b.api.awaitStatus(job, status);
        assertThat(a.bean(AggregateCaches.JOBS, CommittedOnlyCache.class).containsKey(job))
                .as("node-a still holds the job as it made it")
                .isTrue();
        return job;
    }

    @Test
    void pause_and_resume_on_a_node_whose_cache_says_it_is_so_already_are_taken() {
        String id = ScheduleHttp.create(a.api, """
                {"name":"stale-pause","trigger":{"type":"fixedRate","intervalMs":60000},"job":{"jobType":"noop"}}""");
        assertThat(a.api.post("/api/v1/schedules/" + id + "/pause", "{}").text("state"))
                .isEqualTo("PAUSED");
        assertThat(b.api.post("/api/v1/schedules/" + id + "/resume", "{}").text("state"))
                .isEqualTo("ACTIVE");
        assertThat(a.bean(AggregateCaches.SCHEDULES, CommittedOnlyCache.class).containsKey(id))
                .as("node-a still holds the schedule as it paused it")
                .isTrue();

        // node-a's cache says PAUSED: the pause used to be taken as done, 200, and changed nothing
        assertThat(a.api.post("/api/v1/schedules/" + id + "/pause", "{}").text("state"))
                .isEqualTo("PAUSED");
        assertThat(b.api.post("/api/v1/schedules/" + id + "/resume", "{}").text("state"))
                .isEqualTo("ACTIVE");
        assertThat(b.api.post("/api/v1/schedules/" + id + "/pause", "{}").text("state"))
                .isEqualTo("PAUSED");
        // and node-b's cache says PAUSED now, node-a's ACTIVE (its last look): a resume on a is taken too
        assertThat(a.api.post("/api/v1/schedules/" + id + "/resume", "{}").text("state"))
                .isEqualTo("ACTIVE");
        String history =
                a.api.get("/api/v1/schedules/" + id + "/history").body().toString();
        assertThat(countOf(history, "\"SchedulePaused\"")).isEqualTo(3);
        assertThat(countOf(history, "\"ScheduleResumed\"")).isEqualTo(3);
        // asked twice on the store's own state: still done, 200, nothing more written
        assertThat(a.api.post("/api/v1/schedules/" + id + "/resume", "{}").status())
                .isEqualTo(200);
        assertThat(countOf(
                        a.api.get("/api/v1/schedules/" + id + "/history").body().toString(), "\"ScheduleResumed\""))
                .isEqualTo(3);
    }

    private static int countOf(String text, String part) {
        return text.split(java.util.regex.Pattern.quote(part), -1).length - 1;
    }

    @Test
    void a_run_deadline_on_the_node_that_made_the_job_times_out_the_attempt_another_node_runs() {
        String job = madeOnAUntil(SLEEPING, "RUNNING");

        // what the saga's run deadline sends, wherever db-scheduler runs it
        a.bean(SchedulerCommands.class).sendAndWait(new TimeOutJob(job, 1, TimeoutPhase.RUN));

        assertThat(a.api.awaitStatus(job, "TIMED_OUT").path("attempt").asInt()).isEqualTo(1);
    }

    @Test
    void an_operators_retry_on_the_node_that_made_the_job_is_taken_at_once() {
        String job = madeOnAUntil("{\"jobType\":\"flaky\",\"params\":{\"failTimes\":5},\"maxRetries\":0}", "FAILED");

        var retried = a.api.post("/api/v1/jobs/" + job + "/retry", "{}");

        assertThat(retried.status()).as(retried.body().toString()).isEqualTo(200);
    }

    @Test
    void a_jobs_outcome_reported_on_the_node_that_made_it_is_applied() {
        // b started it; a batch of outcomes sent from a (as a worker's callback landing there would) is applied
        String job = madeOnAUntil(SLEEPING, "RUNNING");

        var refusals = a.bean(SchedulerCommands.class).sendBatch(List.of(new SucceedJob(job, 1, "from a", 5)));

        assertThat(refusals).containsOnlyNulls();
        assertThat(a.api.awaitStatus(job, "SUCCEEDED").path("attempt").asInt()).isEqualTo(1);
    }

    @Test
    void a_workers_word_landing_on_the_node_that_made_the_job_is_applied() {
        // what a node does when a worker is lost or a push fails: the attempt fails, even where the job was made
        String job = madeOnAUntil(SLEEPING, "RUNNING");

        a.bean(WorkerCommands.class)
                .sendIgnoringRefusal(
                        new FailJob(job, 1, "worker lost", 0),
                        "worker-1",
                        io.axscheduler.api.security.Caller.SCHEDULER);

        assertThat(a.api.awaitStatus(job, "FAILED").path("attempt").asInt()).isEqualTo(1);
    }
}
