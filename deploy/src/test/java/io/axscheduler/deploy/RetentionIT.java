package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.axscheduler.api.alert.AlertType;
import io.axscheduler.api.alert.RaiseAlert;
import io.axscheduler.api.alert.ResolveAlert;
import io.axscheduler.command.AggregateCaches;
import io.axscheduler.command.CommittedOnlyCache;
import io.axscheduler.scheduler.NodeMetrics;
import io.axscheduler.scheduler.retention.PruneScheduleFires;
import io.axscheduler.scheduler.retention.PurgeFinishedJobs;
import io.axscheduler.scheduler.retention.PurgeResolvedAlerts;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.Test;

/**
 * Jobs that ended for good are deleted once past {@code ax.scheduler.retention.finished-jobs}: events, rows and key,
 * with what may still move, and each schedule's newest job, kept. An hour passing is stood in for by moving the rows'
 * last change an hour back; the checks are called by the test instead of waiting for the timer.
 */
class RetentionIT {

    private static final Map<String, String> SETTINGS = Map.of(
            "ax.scheduler.retention.finished-jobs", "1h",
            // the test runs the checks itself
            "ax.scheduler.retention.check-ms", "3600000",
            "ax.scheduler.execution.shutdown-grace-ms", "500");

    @Test
    void ended_jobs_past_the_retention_are_deleted_and_everything_else_stays() {
        String db = TestDatabase.freshDatabase("retention");
        try (Node node = Node.start(db, "node-a", SETTINGS)) {
            String done = node.api.submit("{\"jobType\":\"noop\"}");
            String watched = node.api.submit("{\"jobType\":\"noop\"}");
            String keyed = node.api.submit("{\"jobType\":\"noop\",\"jobKey\":\"nightly-2026-12-01\"}");
            String failed = node.api.submit("{\"jobType\":\"flaky\",\"params\":{\"failTimes\":5},\"maxRetries\":0}");
            String running = node.api.submit("{\"jobType\":\"sleep\",\"params\":{\"ms\":60000}}");
            String later = node.api.submit("{\"jobType\":\"noop\",\"runAt\":\"2030-01-01T00:00:00Z\"}");
            String schedule = ScheduleHttp.create(node.api, """
                    {"name":"every-second","trigger":{"type":"fixedRate","intervalMs":1000},"job":{"jobType":"noop"}}""");
            node.api.awaitStatus(done, "SUCCEEDED");
            node.api.awaitStatus(watched, "SUCCEEDED");
            node.api.awaitStatus(keyed, "SUCCEEDED");
            node.api.awaitStatus(failed, "FAILED");
            node.api.awaitStatus(running, "RUNNING");
            Await.until(
                    Duration.ofSeconds(20),
                    () -> endedJobsOf(node, schedule) >= 3,
                    () -> node.jdbc()
                            .queryForList("SELECT status FROM job_queue WHERE schedule_id = ?", schedule)
                            .toString());
            assertThat(node.api
                            .post("/api/v1/schedules/" + schedule + "/pause", "{}")
                            .status())
                    .isEqualTo(200);
            // the pause lands after any fire in flight: wait until every job of the schedule has ended
            awaitEveryJobOfScheduleEnded(node, schedule);
            List<String> fired = jobsOf(node, schedule);
            String newest = fired.get(fired.size() - 1);
            int eventRows = count(node, "SELECT COUNT(*) FROM DomainEventEntry");
            awaitSagasOfEndedJobsEnded(node);
            // an ended job whose saga has not read its end yet, as the saga store holds the running job's
            assertThat(node.jdbc()
                            .update(
                                    "INSERT INTO AssociationValueEntry (associationKey, associationValue, sagaId, sagaType)"
                                            + " SELECT associationKey, ?, sagaId, sagaType FROM AssociationValueEntry"
                                            + " WHERE associationKey = 'jobId' AND associationValue = ?",
                                    watched,
                                    running))
                    .isEqualTo(1);

            String firstFireTime = node.api.get("/api/v1/jobs/" + fired.get(0)).text("runAt");
            // nothing has been over for an hour yet
            PurgeFinishedJobs purge = node.bean(PurgeFinishedJobs.class);
            assertThat(purge.purgeOnce()).isZero();

            // two hours later
            int purged = purge.purgeOnce(databaseNow(node) + 2 * 3_600_000);

            // done, keyed, failed and every fire but the newest
            assertThat(purged).isEqualTo(3 + fired.size() - 1);
            for (String gone : List.of(done, keyed, failed, fired.get(0))) {
                assertThat(node.api.get("/api/v1/jobs/" + gone).status()).isEqualTo(404);
                assertThat(node.api.get("/api/v1/jobs/" + gone + "/history").status())
                        .isEqualTo(404);
                assertThat(count(node, "SELECT COUNT(*) FROM DomainEventEntry WHERE aggregateIdentifier = ?", gone))
                        .isZero();
            }
            assertThat(node.api.post("/api/v1/jobs/" + failed + "/retry", "{}").status())
                    .isEqualTo(404);
            // the schedule's answer for that fire says its job is gone, not as if it were live
            JsonNode why = node.api
                    .get("/api/v1/schedules/" + schedule + "/explain?at=" + firstFireTime)
                    .body()
                    .at("/reasons/0");
            assertThat(why.path("code").asText()).as(why.toString()).isEqualTo("FIRED");
            assertThat(why.at("/details/jobDeleted").asBoolean())
                    .as(why.toString())
                    .isTrue();
            assertThat(why.path("message").asText()).contains(fired.get(0), "deleted since");
            assertThat(count(node, "SELECT COUNT(*) FROM job_keys WHERE job_id IN (?, ?)", keyed, fired.get(0)))
                    .isZero();
            assertThat(count(node, "SELECT COUNT(*) FROM DomainEventEntry")).isLessThan(eventRows);
            // what may still move, and the schedule's newest job, stay
            assertThat(node.api.get("/api/v1/jobs/" + running).text("status")).isEqualTo("RUNNING");
            assertThat(node.api.get("/api/v1/jobs/" + later).text("status")).isEqualTo("WAITING");
            assertThat(node.api.get("/api/v1/jobs/" + watched).text("status")).isEqualTo("SUCCEEDED");
            assertThat(node.api.get("/api/v1/jobs/" + newest).text("status")).isEqualTo("SUCCEEDED");
            assertThat(node.api.eventTypes(newest)).startsWith("JobCreated");
            // the key is free again, and makes a new job
            String again = node.api.submit("{\"jobType\":\"noop\",\"jobKey\":\"nightly-2026-12-01\"}");
            assertThat(again).isNotEqualTo(keyed);
            node.api.awaitStatus(again, "SUCCEEDED");
            // the schedule, with its fires' history, is as it was, and fires again once resumed
            assertThat(node.api.get("/api/v1/schedules/" + schedule).text("state"))
                    .isEqualTo("PAUSED");
            assertThat(node.api
                            .post("/api/v1/schedules/" + schedule + "/resume", "{}")
                            .status())
                    .isEqualTo(200);
            Await.until(
                    Duration.ofSeconds(20),
                    () -> jobsOf(node, schedule).size() >= 2,
                    () -> jobsOf(node, schedule).toString());

            // a rebuild of job_queue from the store reads past the deleted events, and brings none of them back
            Api.Response rebuilt = node.api.post("/api/v1/admin/projections/job-queue/rebuild", "{}");
            assertThat(rebuilt.status()).isEqualTo(200);
            for (String gone : List.of(done, keyed, failed, fired.get(0)))
                assertThat(node.api.get("/api/v1/jobs/" + gone).status()).isEqualTo(404);
            assertThat(node.api.get("/api/v1/jobs/" + running).text("status")).isEqualTo("RUNNING");
            assertThat(node.api.get("/api/v1/jobs/" + again).text("status")).isEqualTo("SUCCEEDED");

            // a deleted schedule keeps no job: its last and newest go too once past the retention
            node.jdbc().update("DELETE FROM AssociationValueEntry WHERE associationValue = ?", watched);
            assertThat(ScheduleHttp.delete(node.api, "/api/v1/schedules/" + schedule)
                            .status())
                    .isEqualTo(200);
            awaitEveryJobOfScheduleEnded(node, schedule);
            awaitSagasOfEndedJobsEnded(node);
            assertThat(purge.purgeOnce(databaseNow(node) + 4 * 3_600_000)).isPositive();
            assertThat(jobsOf(node, schedule)).isEmpty();
        }
    }

    @Test
    void a_re_run_waiting_on_a_purge_of_its_job_is_refused_and_leaves_no_event_behind() throws Exception {
        String db = TestDatabase.freshDatabase("retention_race");
        try (Node node = Node.start(db, "node-a", SETTINGS)) {
            String job = node.api.submit("{\"jobType\":\"flaky\",\"params\":{\"failTimes\":5},\"maxRetries\":0}");
            node.api.awaitStatus(job, "FAILED");
            try (Connection purge = TestDatabase.connect(db)) {
                // what a purge's transaction does with one job, held open before it commits
                purge.setAutoCommit(false);
                run(purge, "SELECT job_id FROM job_queue WHERE job_id = ? FOR UPDATE", job);
                run(purge, "DELETE FROM DomainEventEntry WHERE aggregateIdentifier = ?", job);
                run(purge, "DELETE FROM job_queue WHERE job_id = ?", job);

                CompletableFuture<Api.Response> retry =
                        CompletableFuture.supplyAsync(() -> node.api.post("/api/v1/jobs/" + job + "/retry", "{}"));
                Thread.sleep(1_000);
                assertThat(retry).as("the re-run waits for the purge's lock").isNotDone();
                purge.commit();

                assertThat(retry.get(30, TimeUnit.SECONDS).status()).isEqualTo(404);
            }
            // before the lock, the re-run appended its event to a job with none left
            assertThat(count(node, "SELECT COUNT(*) FROM DomainEventEntry WHERE aggregateIdentifier = ?", job))
                    .isZero();
        }
    }

    @Test
    void a_job_a_re_run_holds_is_not_purged_and_is_purged_once_it_ends_again_and_ages() throws Exception {
        String db = TestDatabase.freshDatabase("retention_held");
        try (Node node = Node.start(db, "node-a", SETTINGS)) {
            PurgeFinishedJobs purge = node.bean(PurgeFinishedJobs.class);
            String job = node.api.submit("{\"jobType\":\"flaky\",\"params\":{\"failTimes\":5},\"maxRetries\":0}");
            node.api.awaitStatus(job, "FAILED");
            awaitSagasOfEndedJobsEnded(node);
            try (Connection rerun = TestDatabase.connect(db)) {
                // what a re-run's transaction holds from its lock to its commit
                rerun.setAutoCommit(false);
                run(rerun, "SELECT job_id FROM job_queue WHERE job_id = ? FOR UPDATE", job);
                assertThat(purge.purgeOnce(databaseNow(node) + 2 * 3_600_000)).isZero();
                rerun.rollback();
            }
            assertThat(node.api.post("/api/v1/jobs/" + job + "/retry", "{}").status())
                    .isEqualTo(200);
            node.api.awaitStatus(job, "FAILED");
            assertThat(node.api.eventTypes(job)).contains("JobRetryScheduled");
            awaitSagasOfEndedJobsEnded(node);
            assertThat(purge.purgeOnce(databaseNow(node) + 2 * 3_600_000)).isEqualTo(1);
            assertThat(node.api.get("/api/v1/jobs/" + job).status()).isEqualTo(404);
        }
    }

    @Test
    void a_job_another_node_held_as_it_made_it_leaves_its_memory_before_it_may_be_deleted() throws Exception {
        String db = TestDatabase.freshDatabase("retention_stale");
        Map<String, String> maker = new HashMap<>(SETTINGS);
        maker.put("ax.scheduler.scan.enabled", "false");
        maker.put("ax.command.job-cache-lifetime-ms", "2000");
        try (Node a = Node.start(db, "node-a", maker);
                Node b = Node.start(db, "node-b", SETTINGS)) {
            // node a makes the job and keeps it in memory as waiting; node b runs it to its end
            String job = a.api.submit("{\"jobType\":\"noop\"}");
            long made = System.nanoTime();
            CommittedOnlyCache held = a.bean(AggregateCaches.JOBS, CommittedOnlyCache.class);
            assertThat(held.containsKey(job)).as("node a holds the job it made").isTrue();
            b.api.awaitStatus(job, "SUCCEEDED");
            awaitSagasOfEndedJobsEnded(b);
            assertThat(b.bean(PurgeFinishedJobs.class).purgeOnce(databaseNow(b) + 2 * 3_600_000))
                    .isEqualTo(1);
            Thread.sleep(Math.max(0, 2_500 - (System.nanoTime() - made) / 1_000_000));

            // gone from node a's memory: a command decided there on the job as it was made would append where no
            // event is left to refuse it (the API looks the job up first, so only a deletion between that lookup and
            // the command could meet such an entry)
            assertThat(held.containsKey(job))
                    .as("node a still holds the job past its lifetime")
                    .isFalse();
            assertThat(a.api.post("/api/v1/jobs/" + job + "/cancel", "{}").status())
                    .isEqualTo(404);
            assertThat(count(a, "SELECT COUNT(*) FROM DomainEventEntry WHERE aggregateIdentifier = ?", job))
                    .isZero();
        }
    }

    @Test
    void a_schedules_fire_records_past_the_retention_go_and_what_is_left_replays_to_the_same_schedule()
            throws Exception {
        String db = TestDatabase.freshDatabase("retention_fires");
        Map<String, String> settings = new HashMap<>(SETTINGS);
        settings.put("ax.command.snapshots.schedule-threshold", "10");
        // four fire records a check: the walk goes on from where a check stopped
        settings.put("ax.scheduler.retention.max-per-check", "1");
        settings.put("ax.scheduler.retention.batch-size", "1");
        String schedule;
        try (Node node = Node.start(db, "node-a", settings)) {
            schedule = ScheduleHttp.create(node.api, """
                    {"name":"every-second","trigger":{"type":"fixedRate","intervalMs":1000},"job":{"jobType":"noop"}}""");
            String id = schedule;
            Await.until(
                    Duration.ofSeconds(30),
                    () -> jobsOf(node, id).size() >= 7,
                    () -> jobsOf(node, id).toString());
            assertThat(node.api.post("/api/v1/schedules/" + id + "/pause", "{}").status())
                    .isEqualTo(200);
            awaitEveryJobOfScheduleEnded(node, id);
            // a snapshot after the newest fire (resumed and paused at once, it does not fire): the state the stream
            // replays to then rests on the fire records that stay
            for (int i = 0; i < 20 && snapshotOf(node, id) <= newestFireOf(node, id); i++) {
                node.api.post("/api/v1/schedules/" + id + "/resume", "{}");
                node.api.post("/api/v1/schedules/" + id + "/pause", "{}");
            }
            Await.until(
                    Duration.ofSeconds(10),
                    () -> snapshotOf(node, id) > newestFireOf(node, id),
                    () -> "no snapshot after the newest fire");
            assertThat(node.api.get("/api/v1/schedules/" + id).text("state")).isEqualTo("PAUSED");
            PruneScheduleFires prune = node.bean(PruneScheduleFires.class);
            // nothing is older than the retention yet
            assertThat(prune.pruneOnce(databaseNow(node))).isZero();
            long anchor =
                    node.jdbc().queryForObject("SELECT anchor_at FROM schedules WHERE schedule_id = ?", Long.class, id);
            String firstFire = java.time.Instant.ofEpochMilli(anchor + 1_000).toString();
            assertThat(node.api
                            .get("/api/v1/schedules/" + id + "/explain?at=" + firstFire)
                            .body()
                            .at("/reasons/0/code")
                            .asText())
                    .isEqualTo("FIRED");

            // a node of an older release, which would stop reading a schedule at a gap: nothing goes while it is known
            node.jdbc()
                    .update("INSERT INTO ax_nodes (node_id, scanning, last_scan_at, last_fire_pass_at, reported_at,"
                            + " started_at, pools, reads_gaps) SELECT 'older-node', 0, last_scan_at, last_fire_pass_at,"
                            + " reported_at, started_at, pools, 0 FROM ax_nodes WHERE node_id = 'node-a'");
            assertThat(prune.pruneOnce(databaseNow(node) + 2 * 3_600_000)).isZero();
            node.jdbc().update("DELETE FROM ax_nodes WHERE node_id = 'older-node'");

            // two hours later: the fire records before the snapshot go, the schedule's creation and the rest stay
            long snapshot = snapshotOf(node, id);
            int after = count(
                    node,
                    "SELECT COUNT(*) FROM DomainEventEntry WHERE aggregateIdentifier = ? AND sequenceNumber >= ?",
                    id,
                    snapshot);
            long later = databaseNow(node) + 2 * 3_600_000;
            List<Integer> checks = new java.util.ArrayList<>();
            for (int n = prune.pruneOnce(later); n > 0; n = prune.pruneOnce(later)) checks.add(n);
            assertThat(checks)
                    .as("records deleted by each check")
                    .hasSizeGreaterThan(1)
                    .allMatch(n -> n <= 4);
            assertThat(node.jdbc()
                            .queryForList(
                                    "SELECT payloadType FROM DomainEventEntry WHERE aggregateIdentifier = ?"
                                            + " AND sequenceNumber < ?",
                                    String.class,
                                    id,
                                    snapshot))
                    .first()
                    .isEqualTo("io.axscheduler.api.schedule.ScheduleCreated");
            // below the snapshot, of the fire records only the newest stays: it set the next fire time and last job
            assertThat(node.jdbc()
                            .queryForList(
                                    "SELECT sequenceNumber FROM DomainEventEntry WHERE aggregateIdentifier = ?"
                                            + " AND sequenceNumber < ? AND payloadType LIKE '%.ScheduleFire%'",
                                    Long.class, id, snapshot))
                    .containsExactly(newestFireOf(node, id));
            assertThat(count(
                            node,
                            "SELECT COUNT(*) FROM DomainEventEntry WHERE aggregateIdentifier = ? AND sequenceNumber >= ?",
                            id,
                            snapshot))
                    .isGreaterThanOrEqualTo(after);
            // the history reads past the gap, a page at a time without repeats
            List<Long> paged = new java.util.ArrayList<>();
            for (int page = 0; page < 3; page++) {
                Api.Response history = node.api.get("/api/v1/schedules/" + id + "/history?size=2&page=" + page);
                history.body()
                        .get("events")
                        .forEach(e -> paged.add(e.get("sequence").asLong()));
            }
            List<Long> stored = node.jdbc()
                    .queryForList(
                            "SELECT sequenceNumber FROM DomainEventEntry WHERE aggregateIdentifier = ?"
                                    + " ORDER BY sequenceNumber",
                            Long.class,
                            id);
            assertThat(paged.size())
                    .isGreaterThanOrEqualTo(Math.min(
                            6,
                            count(
                                    node,
                                    "SELECT COUNT(*) FROM DomainEventEntry WHERE aggregateIdentifier = ? AND sequenceNumber <= ?",
                                    id,
                                    snapshot + 2)));
            assertThat(paged).isEqualTo(stored.subList(0, paged.size()));
            Api.Response explained = node.api.get("/api/v1/schedules/" + id + "/explain?at=" + firstFire);
            assertThat(explained.body().at("/reasons/0/code").asText())
                    .as(explained.body().toString())
                    .isEqualTo("PAST_RETENTION");
            // a walk is hourly: the next check within the hour deletes nothing more
            assertThat(prune.pruneOnce(databaseNow(node) + 2 * 3_600_000)).isZero();
        }
        // without its snapshot, the schedule replays from what is left and goes on: each fire time once
        try (Connection direct = TestDatabase.connect(db)) {
            run(direct, "DELETE FROM SnapshotEventEntry WHERE aggregateIdentifier = ?", schedule);
        }
        try (Node node = Node.start(db, "node-a", settings)) {
            String id = schedule;
            int before = jobsOf(node, id).size();
            assertThat(node.api
                            .post("/api/v1/schedules/" + id + "/resume", "{}")
                            .status())
                    .isEqualTo(200);
            Await.until(
                    Duration.ofSeconds(20),
                    () -> jobsOf(node, id).size() >= before + 3,
                    () -> jobsOf(node, id).toString());
            assertThat(node.jdbc()
                            .queryForList(
                                    "SELECT run_at FROM job_queue WHERE schedule_id = ? GROUP BY run_at"
                                            + " HAVING COUNT(*) > 1",
                                    Long.class,
                                    id))
                    .isEmpty();

            // deleted, a schedule needs none of its records: every old one behind its snapshot goes
            Await.until(Duration.ofSeconds(30), () -> snapshotOf(node, id) > 0, () -> "no snapshot");
            assertThat(ScheduleHttp.delete(node.api, "/api/v1/schedules/" + id).status())
                    .isEqualTo(200);
            awaitEveryJobOfScheduleEnded(node, id);
            long snapshot = snapshotOf(node, id);
            PruneScheduleFires prune = node.bean(PruneScheduleFires.class);
            long later = databaseNow(node) + 2 * 3_600_000;
            while (prune.pruneOnce(later) > 0) {}
            assertThat(count(
                            node,
                            "SELECT COUNT(*) FROM DomainEventEntry WHERE aggregateIdentifier = ? AND sequenceNumber < ?"
                                    + " AND payloadType LIKE '%.ScheduleFire%'",
                            id,
                            snapshot))
                    .isZero();
            assertThat(node.api.get("/api/v1/schedules/" + id).text("state")).isEqualTo("DELETED");
        }
    }

    private static long newestFireOf(Node node, String schedule) {
        return node.jdbc()
                .queryForObject(
                        "SELECT COALESCE(MAX(sequenceNumber), -1) FROM DomainEventEntry WHERE aggregateIdentifier = ?"
                                + " AND payloadType = 'io.axscheduler.api.schedule.ScheduleFired'",
                        Long.class,
                        schedule);
    }

    private static long snapshotOf(Node node, String aggregate) {
        List<Long> seq = node.jdbc()
                .queryForList(
                        "SELECT sequenceNumber FROM SnapshotEventEntry WHERE aggregateIdentifier = ?",
                        Long.class,
                        aggregate);
        return seq.isEmpty() ? 0 : seq.get(0);
    }

    /** A pause or delete lands after any fire in flight: every job the schedule made has ended once this returns. */
    private static void awaitEveryJobOfScheduleEnded(Node node, String schedule) {
        Await.until(
                Duration.ofSeconds(20),
                () -> endedJobsOf(node, schedule) == jobsOf(node, schedule).size(),
                () -> jobsOf(node, schedule).toString());
    }

    /** The lifecycle saga reads events behind their commit; a job it still watches is not deleted. */
    private static void awaitSagasOfEndedJobsEnded(Node node) {
        String watched =
                "SELECT COUNT(*) FROM AssociationValueEntry a JOIN job_queue j ON j.job_id = a.associationValue"
                        + " WHERE j.status <> 'RUNNING'";
        Await.until(
                Duration.ofSeconds(20),
                () -> count(node, watched) == 0,
                () -> node.jdbc()
                        .queryForList("SELECT * FROM AssociationValueEntry")
                        .toString());
    }

    @Test
    void a_job_that_ends_after_the_retention_of_its_creation_is_deleted_once_its_end_is_that_old() {
        String db = TestDatabase.freshDatabase("retention_late");
        try (Node node = Node.start(db, "node-a", SETTINGS)) {
            PurgeFinishedJobs purge = node.bean(PurgeFinishedJobs.class);
            String job = node.api.submit("{\"jobType\":\"sleep\",\"params\":{\"ms\":3000}}");
            node.api.awaitStatus(job, "SUCCEEDED");
            awaitSagasOfEndedJobsEnded(node);
            Map<String, Object> row =
                    node.jdbc().queryForMap("SELECT created_at, updated_at FROM job_queue WHERE job_id = ?", job);
            long made = ((Number) row.get("created_at")).longValue();
            long ended = ((Number) row.get("updated_at")).longValue();
            long retention = 3_600_000;

            // the retention has passed since it was made, not since it ended: kept
            assertThat(purge.purgeOnce(made + retention + (ended - made) / 2)).isZero();
            assertThat(node.api.get("/api/v1/jobs/" + job).status()).isEqualTo(200);
            // a check later its end is that old too: deleted then, not at the next walk from the oldest job
            assertThat(purge.purgeOnce(ended + retention + 1_000)).isEqualTo(1);
            assertThat(node.api.get("/api/v1/jobs/" + job).status()).isEqualTo(404);
        }
    }

    /**
     * A resolved alert goes with its events, row and notification rows once resolved longer ago than the retention and
     * the rate window both (the rule's limit counts the window's raises); a firing one stays whatever its age. The
     * evaluator is off, so the test's alerts stay as it leaves them.
     */
    @Test
    void resolved_alerts_past_the_retention_and_the_rate_window_are_deleted_and_firing_ones_stay() {
        String db = TestDatabase.freshDatabase("retention_alerts");
        Map<String, String> settings = new HashMap<>(SETTINGS);
        settings.put("ax.alerts.enabled", "false");
        settings.put("ax.alerts.rate-limit.window-ms", "10800000");
        try (Node node = Node.start(db, "node-a", settings)) {
            CommandGateway commands = node.bean(CommandGateway.class);
            for (String id : List.of("alert-resolved", "alert-firing")) {
                commands.sendAndWait(new RaiseAlert(
                        id, "failures", AlertType.JOB_FAILED, id, "m", Map.of(), List.of("ops"), true, null));
            }
            commands.sendAndWait(new ResolveAlert("alert-resolved", "resolved"));
            PurgeResolvedAlerts purge = node.bean(PurgeResolvedAlerts.class);
            long now = databaseNow(node);
            String rows = "SELECT COUNT(*) FROM alerts WHERE alert_id = ?";
            String events = "SELECT COUNT(*) FROM DomainEventEntry WHERE aggregateIdentifier = ?";
            String notifications = "SELECT COUNT(*) FROM alert_notifications WHERE alert_id = ?";
            assertThat(count(node, events, "alert-resolved")).isEqualTo(2);
            assertThat(count(node, notifications, "alert-resolved")).isEqualTo(1);

            // past the retention (1h) but within the rate window (3h): kept
            assertThat(purge.purgeOnce(now + 2 * 3_600_000)).isZero();
            assertThat(count(node, rows, "alert-resolved")).isEqualTo(1);

            // past both
            assertThat(purge.purgeOnce(now + 4 * 3_600_000)).isEqualTo(1);
            assertThat(count(node, rows, "alert-resolved")).isZero();
            assertThat(count(node, events, "alert-resolved")).isZero();
            assertThat(count(node, notifications, "alert-resolved")).isZero();
            assertThat(node.api
                            .get("/api/v1/alerts?state=RESOLVED")
                            .body()
                            .path("items")
                            .size())
                    .isZero();
            // the firing one stays, with its record
            assertThat(count(node, rows, "alert-firing")).isEqualTo(1);
            assertThat(count(node, events, "alert-firing")).isEqualTo(1);
            assertThat(node.api
                            .get("/api/v1/alerts?state=FIRING")
                            .body()
                            .path("items")
                            .size())
                    .isEqualTo(1);
            assertThat(node.bean(NodeMetrics.class)
                            .registry()
                            .get("ax.alerts.purged")
                            .counter()
                            .count())
                    .isEqualTo(1.0);
            // and goes once resolved and as old
            commands.sendAndWait(new ResolveAlert("alert-firing", "resolved"));
            assertThat(purge.purgeOnce(databaseNow(node) + 4 * 3_600_000)).isEqualTo(1);
            assertThat(count(node, "SELECT COUNT(*) FROM alerts")).isZero();
        }
    }

    private static long databaseNow(Node node) {
        return node.jdbc().queryForObject("SELECT ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000)", Long.class);
    }

    private static void run(Connection connection, String sql, String id) throws Exception {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, id);
            statement.execute();
        }
    }

    private static List<String> jobsOf(Node node, String schedule) {
        return node.jdbc()
                .queryForList(
                        "SELECT job_id FROM job_queue WHERE schedule_id = ? ORDER BY created_at",
                        String.class,
                        schedule);
    }

    private static int endedJobsOf(Node node, String schedule) {
        return count(node, "SELECT COUNT(*) FROM job_queue WHERE schedule_id = ? AND status = 'SUCCEEDED'", schedule);
    }

    private static int count(Node node, String sql, Object... args) {
        Integer n = node.jdbc().queryForObject(sql, Integer.class, args);
        return n == null ? 0 : n;
    }
}
