package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.axscheduler.command.AggregateCaches;
import io.axscheduler.command.AggregateLocks;
import io.axscheduler.scheduler.NodeMetrics;
import io.axscheduler.scheduler.claim.ClaimDueJobs;
import io.axscheduler.scheduler.fire.FireDueSchedules;
import io.axscheduler.scheduler.fire.ScanSchedules;
import io.axscheduler.scheduler.run.JobExecutors;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.axonframework.common.lock.Lock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A schedule fire whose job is already due when it is made, of a type this node's pools run, is claimed and started
 * in the fire's own transaction: the row is inserted running and no claim pass takes it. A fire made ahead of its
 * time, or one whose pool has no free slot, is left to the claim scan; a fire rolled back gives its slot back. The
 * schedule scan is paused and the test fires by hand; the job scan runs, only when woken. One thread per type, so one
 * running job fills a pool. A job skipped because its aggregate was busy is tried again at once.
 */
class StartDueFiresIT {

    static Node node;

    @BeforeAll
    static void start() {
        node = Node.start(
                TestDatabase.freshDatabase("start_due_fires"),
                "node-a",
                Map.of(
                        "ax.scheduler.execution.threads-per-type", "1",
                        // fires made well ahead, so that one made ahead stands out from a due one
                        "ax.scheduler.schedules.fire-ahead-ms", "1500",
                        // claim passes only when woken for work: a periodic one takes the pools' free slots while it
                        // runs, and a fire meanwhile would leave its job to the claim scan
                        "ax.scheduler.scan.min-interval-ms", "30000",
                        "ax.scheduler.scan.max-interval-ms", "30000",
                        // a loaded machine may take seconds between making a schedule and firing it
                        "ax.scheduler.schedules.misfire-threshold-ms", "120000"));
        node.bean(ScanSchedules.class).pauseScanning();
    }

    @AfterAll
    static void stop() {
        if (node != null) node.close();
    }

    /** A schedule whose first fire is due by the time this returns. */
    private static String dueSchedule(String name, String jobType, String params) {
        Instant startAt = Instant.now().plusMillis(300).truncatedTo(ChronoUnit.MILLIS);
        String id = schedule(name, startAt, jobType, params);
        Await.until(Duration.ofSeconds(5), () -> Instant.now().isAfter(startAt.plusMillis(50)), () -> "clock");
        return id;
    }

    private static String schedule(String name, Instant startAt, String jobType, String params) {
        return ScheduleHttp.create(node.api, """
                {"name":"%s","trigger":{"type":"fixedRate","intervalMs":3600000,"startAt":"%s"},
                 "job":{"jobType":"%s","params":%s}}""".formatted(name, startAt, jobType, params));
    }

    private static double count(String meter) {
        return node.bean(NodeMetrics.class).registry().get(meter).counter().count();
    }

    private static Map<String, Object> jobRow(String scheduleId) {
        return node.jdbc()
                .queryForMap(
                        "SELECT job_id, status, claimable, attempt, node, worker, lease_until FROM job_queue"
                                + " WHERE schedule_id = ?",
                        scheduleId);
    }

    private static List<String> eventTypes(String jobId) {
        return eventTypes(node, jobId);
    }

    private static List<String> eventTypes(Node on, String jobId) {
        return on
                .jdbc()
                .queryForList(
                        "SELECT payloadType FROM DomainEventEntry WHERE aggregateIdentifier = ? ORDER BY sequenceNumber",
                        String.class,
                        jobId)
                .stream()
                .map(type -> type.substring(type.lastIndexOf('.') + 1))
                .toList();
    }

    private static void awaitFreeSlot(String jobType) {
        JobExecutors executors = node.bean(JobExecutors.class);
        Await.until(
                Duration.ofSeconds(30),
                () -> executors.freeSlots().containsKey(jobType),
                () -> jobType + "'s pool stays full: " + executors.freeSlots());
    }

    private static FireDueSchedules.Fired fire() {
        return node.bean(FireDueSchedules.class).fireDue(100, Set.of());
    }

    @Test
    void a_due_fire_of_a_type_this_node_runs_is_claimed_and_started_in_its_own_transaction() {
        awaitFreeSlot("sleep");
        String scheduleId = dueSchedule("due", "sleep", "{\"ms\":3000}");
        double startedBefore = count("ax.fires.started");
        double claimedBefore = count("ax.scan.claimed");

        assertThat(fire().jobs()).isEqualTo(1);

        // as the fire committed: one row, inserted running, and the job's first three events
        Map<String, Object> row = jobRow(scheduleId);
        String jobId = (String) row.get("job_id");
        assertThat(row)
                .containsEntry("status", "RUNNING")
                .containsEntry("attempt", 1)
                .containsEntry("node", "node-a")
                .containsEntry("worker", "in-process")
                .containsEntry("lease_until", null);
        assertThat(((Number) row.get("claimable")).intValue()).isZero();
        assertThat(eventTypes(jobId)).containsExactly("JobCreated", "JobClaimed", "JobStarted");
        assertThat(count("ax.fires.started")).isEqualTo(startedBefore + 1);

        JsonNode done = node.api.awaitStatus(jobId, "SUCCEEDED");
        assertThat(done.path("attempt").asInt()).isEqualTo(1);
        List<String> history = new ArrayList<>();
        for (JsonNode event :
                node.api.get("/api/v1/jobs/" + jobId + "/history").body().path("events")) {
            history.add(event.path("type").asText());
            assertThat(event.path("metadata").path("actor").asText()).isEqualTo("scheduler");
            assertThat(event.path("metadata").path("node").asText()).isEqualTo("node-a");
        }
        assertThat(history).containsExactly("JobCreated", "JobClaimed", "JobStarted", "JobSucceeded");
        // no claim pass took it
        assertThat(count("ax.scan.claimed")).isEqualTo(claimedBefore);
    }

    @Test
    void a_fire_made_ahead_of_its_time_is_left_to_the_claim_scan() {
        Instant due = Instant.now().plusMillis(1_200).truncatedTo(ChronoUnit.MILLIS);
        String scheduleId = schedule("ahead", due, "noop", "{}");
        double startedBefore = count("ax.fires.started");

        assertThat(fire().jobs()).isEqualTo(1);

        Map<String, Object> row = jobRow(scheduleId);
        String jobId = (String) row.get("job_id");
        assertThat(eventTypes(jobId)).containsExactly("JobCreated");
        node.api.awaitStatus(jobId, "SUCCEEDED");
        assertThat(eventTypes(jobId)).containsExactly("JobCreated", "JobClaimed", "JobStarted", "JobSucceeded");
        assertThat(count("ax.fires.started")).isEqualTo(startedBefore);
    }

    @Test
    void a_due_fire_whose_pool_is_full_is_left_to_the_claim_scan() {
        JobExecutors executors = node.bean(JobExecutors.class);
        String busy = node.api.submit("{\"jobType\":\"sleep\",\"params\":{\"ms\":2000}}");
        Await.until(
                Duration.ofSeconds(30),
                () -> !executors.freeSlots().containsKey("sleep"),
                () -> "sleep's pool never filled: "
                        + node.api.get("/api/v1/jobs/" + busy).body());
        String scheduleId = dueSchedule("full", "sleep", "{\"ms\":10}");
        double startedBefore = count("ax.fires.started");

        assertThat(fire().jobs()).isEqualTo(1);

        String jobId = (String) jobRow(scheduleId).get("job_id");
        assertThat(count("ax.fires.started")).isEqualTo(startedBefore);
        node.api.awaitStatus(jobId, "SUCCEEDED");
        assertThat(eventTypes(jobId)).containsExactly("JobCreated", "JobClaimed", "JobStarted", "JobSucceeded");
    }

    /**
     * The command that made a job holds its aggregate until its unit of work is cleaned up, after the commit that
     * wakes the scan: under load the woken pass finds the job busy and skips it. It is tried again 50 ms later, not
     * at the next tick (30 s here): with the pool's one slot (the lane came back full) and with four (it came back
     * short, the busy job among its rows, and would otherwise have gone quiet until the tick).
     */
    @Test
    void a_job_skipped_as_busy_at_its_claim_is_tried_again_at_once_not_at_the_next_tick() {
        awaitFreeSlot("noop");
        skippedAsBusyThenRun(node);
        try (Node roomy = Node.start(
                TestDatabase.freshDatabase("busy_claims"),
                "node-b",
                Map.of(
                        "ax.scheduler.execution.threads-per-type", "4",
                        "ax.scheduler.scan.min-interval-ms", "30000",
                        "ax.scheduler.scan.max-interval-ms", "30000"))) {
            skippedAsBusyThenRun(roomy);
        }
    }

    private static void skippedAsBusyThenRun(Node on) {
        String jobId = on.api.submit("{\"jobType\":\"noop\",\"delayMs\":1500}");
        Instant due = Instant.parse(on.api.get("/api/v1/jobs/" + jobId).text("runAt"));
        long claimsBefore = on.bean(ClaimDueJobs.class).transactions();
        Lock held = on.bean(AggregateCaches.JOB_LOCKS, AggregateLocks.class).obtainLock(jobId);
        try {
            Await.until(Duration.ofSeconds(10), () -> Instant.now().isAfter(due.plusMillis(300)), () -> "clock");
            // the pass woken for it ran and left it
            assertThat(on.bean(ClaimDueJobs.class).transactions()).isGreaterThan(claimsBefore);
            assertThat(on.api.get("/api/v1/jobs/" + jobId).text("status")).isEqualTo("WAITING");
        } finally {
            held.release();
        }
        Await.until(
                Duration.ofSeconds(10),
                () -> "SUCCEEDED".equals(on.api.get("/api/v1/jobs/" + jobId).text("status")),
                () -> "not run 10 s after its aggregate was free: "
                        + on.api.get("/api/v1/jobs/" + jobId).body());
        assertThat(eventTypes(on, jobId)).containsExactly("JobCreated", "JobClaimed", "JobStarted", "JobSucceeded");
    }

    @Test
    void a_fire_rolled_back_gives_its_slot_back_and_leaves_nothing() {
        JobExecutors executors = node.bean(JobExecutors.class);
        awaitFreeSlot("noop");
        String scheduleId = dueSchedule("rolled-back", "noop", "{}");
        double startedBefore = count("ax.fires.started");

        new TransactionTemplate(node.bean(org.springframework.transaction.PlatformTransactionManager.class))
                .executeWithoutResult(tx -> {
                    assertThat(fire().jobs()).isEqualTo(1);
                    assertThat(executors.freeSlots()).doesNotContainKey("noop");
                    tx.setRollbackOnly();
                });

        assertThat(executors.freeSlots()).containsEntry("noop", 1);
        assertThat(count("ax.fires.started")).isEqualTo(startedBefore);
        assertThat(node.jdbc()
                        .queryForObject(
                                "SELECT COUNT(*) FROM job_queue WHERE schedule_id = ?", Integer.class, scheduleId))
                .isZero();

        // the schedule fires again as if never tried, and its job is started with the fire
        assertThat(fire().jobs()).isEqualTo(1);
        assertThat(count("ax.fires.started")).isEqualTo(startedBefore + 1);
        node.api.awaitStatus((String) jobRow(scheduleId).get("job_id"), "SUCCEEDED");
    }
}
