package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.axscheduler.scheduler.DatabaseTime;
import io.axscheduler.scheduler.claim.ScanDueJobs;
import io.axscheduler.scheduler.fire.ScanSchedules;
import io.axscheduler.scheduler.observe.ReportNodeStatus;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every explain code, each produced by the scenario that causes it, through the HTTP API: jobs waiting for their time,
 * in backoff, behind a full pool, for an absent worker app, for a type nobody runs, with no node scanning, claimed,
 * running, canceled, out of retries, succeeded; schedules fired, paused, skipped by misfire and by overlap, queued,
 * asked about outside a fire time, before creation, after deletion, with no node scanning, and held back by another
 * node pacing their type. {@code NODE_GONE} is in NodeCrashIT (a node killed), {@code WORKERS_COOLING_DOWN} in
 * WorkerRemoteIT (a worker whose pushes fail).
 */
class ExplainIT {

    static Node node;
    static HttpServer slowWorker;

    @BeforeAll
    static void start() throws IOException {
        node = Node.start(
                TestDatabase.freshDatabase("explain"),
                "explain-node",
                Map.of("ax.scheduler.execution.threads-per-type", "2", "ax.observe.node-report-ms", "500"));
        // a worker whose push answer takes 3 s: the job stays CLAIMED that long
        slowWorker = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        slowWorker.createContext("/", exchange -> {
            sleep(3000);
            byte[] body = "{\"state\":\"ACCEPTED\"}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        slowWorker.start();
    }

    @AfterAll
    static void stop() {
        node.close();
        slowWorker.stop(0);
    }

    private static JsonNode explainJob(String jobId) {
        Api.Response r = node.api.get("/api/v1/jobs/" + jobId + "/explain");
        assertThat(r.status()).as(r.body().toString()).isEqualTo(200);
        return r.body();
    }

    private static List<String> codes(JsonNode explanation) {
        List<String> codes = new ArrayList<>();
        explanation.path("reasons").forEach(r -> codes.add(r.path("code").asText()));
        return codes;
    }

    private static void reportNow() {
        node.bean(ReportNodeStatus.class).report();
    }

    @Test
    void a_job_explains_its_wait_its_backoff_its_end_and_its_cancel() {
        String later = node.api.submit("{\"jobType\":\"noop\",\"delayMs\":600000}");
        assertThat(codes(explainJob(later))).containsExactly("WAITING_UNTIL_DUE");

        String canceled = node.api.submit("{\"jobType\":\"noop\",\"delayMs\":600000}");
        node.api.post("/api/v1/jobs/" + canceled + "/cancel", "{\"reason\":\"not needed\"}");
        JsonNode cancel = explainJob(canceled);
        assertThat(codes(cancel)).containsExactly("CANCELED");
        // the actor is the authenticated principal: the tests' bootstrap admin key
        assertThat(cancel.at("/reasons/0/details/by").asText()).isEqualTo("key:bootstrap-admin");

        String backoff = node.api.submit(
                "{\"jobType\":\"flaky\",\"params\":{\"failTimes\":1},\"maxRetries\":1,\"backoff\":{\"delaysMs\":[600000]}}");
        node.api.awaitStatus(backoff, "RETRY_WAITING");
        assertThat(codes(explainJob(backoff))).containsExactly("BACKOFF_UNTIL");

        String exhausted = node.api.submit("{\"jobType\":\"flaky\",\"params\":{\"failTimes\":5},\"maxRetries\":0}");
        node.api.awaitStatus(exhausted, "FAILED");
        JsonNode failed = explainJob(exhausted);
        assertThat(codes(failed)).containsExactly("RETRIES_EXHAUSTED");
        assertThat(failed.at("/reasons/0/details/lastError").asText()).isNotEmpty();

        String timedOut =
                node.api.submit("{\"jobType\":\"sleep\",\"params\":{\"ms\":5000},\"timeoutMs\":300,\"maxRetries\":0}");
        node.api.awaitStatus(timedOut, "TIMED_OUT");
        JsonNode lastTimedOut = explainJob(timedOut);
        assertThat(codes(lastTimedOut)).containsExactly("RETRIES_EXHAUSTED");
        assertThat(lastTimedOut.at("/reasons/0/details/lastError").asText())
                .isEqualTo("attempt 1 timed out: it ran longer than its timeoutMs (300 ms)");

        String done = node.api.submit("{\"jobType\":\"noop\"}");
        node.api.awaitStatus(done, "SUCCEEDED");
        assertThat(codes(explainJob(done))).containsExactly("SUCCEEDED");
    }

    @Test
    void a_job_behind_full_pools_is_no_free_slot_and_a_running_one_says_where_and_until_when() {
        String first = node.api.submit("{\"jobType\":\"sleep\",\"params\":{\"ms\":6000},\"timeoutMs\":60000}");
        // another namespace's job fills the type's pool as well: pools are per type, shared by the namespaces
        String second =
                node.api.submit("{\"jobType\":\"sleep\",\"namespace\":\"explain-team\",\"params\":{\"ms\":6000}}");
        node.api.awaitStatus(first, "RUNNING");
        node.api.awaitStatus(second, "RUNNING");
        String third = node.api.submit("{\"jobType\":\"sleep\",\"params\":{\"ms\":10}}");
        reportNow();
        JsonNode blocked = explainJob(third);
        assertThat(codes(blocked)).containsExactly("NO_FREE_SLOT");
        assertThat(blocked.at("/reasons/0/details/pools/explain-node/threads").asInt())
                .isEqualTo(2);
        // the other namespace is counted, not named: the caller may not see it
        assertThat(blocked.at("/reasons/0/details/inPoolsByNamespace").toString())
                .isEqualTo("{\"thisNamespace\":1,\"otherNamespaces\":1}");
        assertThat(blocked.at("/reasons/0/message").asText())
                .endsWith("; their slots hold 1 job(s) of namespace default and 1 of other namespaces")
                .doesNotContain("explain-team");
        // a worker that registered the type changes nothing: a job bound to no app, of a type this node runs in
        // its own pools, is never pushed to a worker (it was told DUE, as if the worker had room for it)
        String worker = register("bystander", List.of("sleep"), "http://127.0.0.1:9");
        try {
            assertThat(codes(explainJob(third))).containsExactly("NO_FREE_SLOT");
        } finally {
            assertThat(ScheduleHttp.delete(node.api, "/api/v1/workers/" + worker)
                            .status())
                    .isEqualTo(204);
        }

        JsonNode running = explainJob(first);
        assertThat(codes(running)).containsExactly("RUNNING");
        assertThat(running.at("/reasons/0/details/node").asText()).isEqualTo("explain-node");
        assertThat(running.at("/reasons/0/details/timeoutAt").asText()).isNotEmpty();
        node.api.awaitStatus(third, "SUCCEEDED");
    }

    @Test
    void a_job_for_an_app_with_no_live_worker_or_for_a_type_no_live_worker_runs_says_so() {
        ScanDueJobs scan = node.bean(ScanDueJobs.class);
        scan.pauseScanning();
        String absent, unhandled, typeGone;
        try {
            // a type only a worker ran, bound to no app: once that worker is gone, nothing runs it
            String only = register("only", List.of("only-type"), "http://127.0.0.1:9");
            typeGone = node.api.submit("{\"jobType\":\"only-type\"}");
            assertThat(ScheduleHttp.delete(node.api, "/api/v1/workers/" + only).status())
                    .isEqualTo(204);
            String gone = register("ghost", List.of("ghost-type"), "http://127.0.0.1:9");
            absent = node.api.submit("{\"jobType\":\"ghost-type\",\"executorApp\":\"ghost\"}");
            String half = register("half", List.of("half-a", "half-b"), "http://127.0.0.1:9");
            unhandled = node.api.submit("{\"jobType\":\"half-b\",\"executorApp\":\"half\"}");
            // a second worker of the app (at its own address: one registered at the first's replaces it)
            register("half", List.of("half-a"), "http://127.0.0.1:10");
            assertThat(ScheduleHttp.delete(node.api, "/api/v1/workers/" + gone).status())
                    .isEqualTo(204);
            assertThat(ScheduleHttp.delete(node.api, "/api/v1/workers/" + half).status())
                    .isEqualTo(204);
        } finally {
            scan.resumeScanning();
        }
        reportNow();
        JsonNode noWorker = explainJob(absent);
        assertThat(codes(noWorker)).containsExactly("NO_LIVE_WORKER");
        assertThat(noWorker.at("/reasons/0/details/app").asText()).isEqualTo("ghost");
        // no worker of that name at all: the apps that are there, in case the name is misspelt
        assertThat(noWorker.at("/reasons/0/message").asText())
                .contains("no worker of app ghost is registered there (apps registered there now: ")
                .contains("half")
                .contains("is executorApp spelt right?");
        // its workers removed, no heartbeat is left to date it: it has waited since it fell due
        assertThat(noWorker.at("/reasons/0/since").isTextual())
                .as(noWorker.toString())
                .isTrue();
        assertThat(codes(explainJob(unhandled))).containsExactly("NO_HANDLER");
        JsonNode noHandler = explainJob(typeGone);
        assertThat(codes(noHandler)).containsExactly("NO_HANDLER");
        assertThat(noHandler.at("/reasons/0/details/jobType").asText()).isEqualTo("only-type");
        // when the scheduler gives such a job up: no-worker-timeout (10 min) after it fell due
        Instant due = Instant.parse(noHandler.at("/reasons/0/since").asText());
        assertThat(Instant.parse(noHandler.at("/reasons/0/details/givenUpAt").asText()))
                .isEqualTo(due.plus(Duration.ofMinutes(10)));
        assertThat(noHandler.at("/reasons/0/message").asText()).contains("given up at " + due.plusSeconds(600));
        assertThat(noWorker.at("/reasons/0/details/givenUpAt").isTextual()).isTrue();
    }

    @Test
    void a_job_with_no_node_scanning_says_so_and_one_pushed_to_a_slow_worker_is_claimed() {
        // an admin pauses the node's scanning through the API (it reports at once)
        assertThat(node.api.post("/api/v1/admin/scanning/pause", "").status()).isEqualTo(200);
        String waiting;
        try {
            waiting = node.api.submit("{\"jobType\":\"noop\"}");
            JsonNode stuck = explainJob(waiting);
            assertThat(codes(stuck)).containsExactly("NO_NODE_SCANNING");
            // since it became due, as the other waits say
            assertThat(Instant.parse(stuck.at("/reasons/0/since").asText())).isBeforeOrEqualTo(Instant.now());
            // an operator paused it: said so, with who and when (the admin trail), not taken for a stall
            assertThat(stuck.at("/reasons/0/message").asText())
                    .contains("scanning is paused or switched off on every live node [explain-node]"
                            + " (explain-node paused by key:bootstrap-admin at ")
                    .doesNotContain("completed within");
            assertThat(stuck.at("/reasons/0/details/nodes/explain-node/scanning")
                            .asBoolean())
                    .isFalse();
        } finally {
            assertThat(node.api.post("/api/v1/admin/scanning/resume", "").status())
                    .isEqualTo(200);
        }
        node.api.awaitStatus(waiting, "SUCCEEDED");

        register(
                "slow",
                List.of("slow-type"),
                "http://127.0.0.1:" + slowWorker.getAddress().getPort());
        String pushed = node.api.submit("{\"jobType\":\"slow-type\",\"executorApp\":\"slow\"}");
        JsonNode claimed = node.api.awaitStatus(pushed, "CLAIMED");
        JsonNode explained = explainJob(pushed);
        assertThat(codes(explained)).as(claimed.toString()).containsExactly("CLAIMED");
        assertThat(explained.at("/reasons/0/details/node").asText()).isEqualTo("explain-node");
        assertThat(explained.at("/reasons/0/details/leaseUntil").asText()).isNotEmpty();
    }

    @Test
    void a_schedule_explains_fired_not_a_fire_time_not_created_yet_and_deleted() {
        String id = ScheduleHttp.create(node.api, """
                {"name":"every-second","trigger":{"type":"fixedRate","intervalMs":1000},"job":{"jobType":"noop"}}""");
        JsonNode first = awaitFirstFire(id);
        Instant fireTime = Instant.parse(first.path("fireTime").asText());
        JsonNode fired = explainSchedule(id, fireTime);
        assertThat(codes(fired)).containsExactly("FIRED");
        assertThat(fired.at("/reasons/0/details/jobId").asText()).isNotEmpty();

        assertThat(codes(explainSchedule(id, Instant.now().minusSeconds(3600)))).containsExactly("NOT_CREATED_YET");

        String nightly = ScheduleHttp.create(node.api, """
                {"name":"nightly","trigger":{"type":"cron","expression":"0 0 3 * * ?"},"job":{"jobType":"noop"}}""");
        JsonNode notAFireTime = explainSchedule(nightly, Instant.now().plusSeconds(60));
        assertThat(codes(notAFireTime)).containsExactly("NOT_A_FIRE_TIME");
        assertThat(notAFireTime.at("/reasons/0/details/nextFireTimes").size()).isEqualTo(3);
        // asked about now, as the console does (no ?at=): the message's instants have the API's milliseconds, not the
        // clock's nanoseconds
        JsonNode now = node.api.get("/api/v1/schedules/" + nightly + "/explain").body();
        assertThat(now.at("/reasons/0/message").asText()).as(now.toString()).doesNotContainPattern("\\.\\d{4,}Z");

        // 02:30 does not exist in New York on 2027-03-14: the schedule fires at the gap's end, 03:30 EDT, and explain
        // says so as the preview does (it said NOT_A_FIRE_TIME, counting from a minute before)
        String dst = ScheduleHttp.create(node.api, """
                {"name":"dst","trigger":{"type":"cron","expression":"0 30 2 * * ?","timezone":"America/New_York"},
                 "job":{"jobType":"noop"}}""");
        JsonNode gap = explainSchedule(dst, Instant.parse("2027-03-14T07:30:00Z"));
        assertThat(codes(gap)).containsExactly("WAITING_UNTIL_DUE");
        assertThat(gap.path("fireTime").asText()).startsWith("2027-03-14T07:30:00");
        ScheduleHttp.delete(node.api, "/api/v1/schedules/" + dst);

        ScheduleHttp.delete(node.api, "/api/v1/schedules/" + id);
        assertThat(codes(explainSchedule(id, Instant.now().plusSeconds(1)))).containsExactly("DELETED");
        ScheduleHttp.delete(node.api, "/api/v1/schedules/" + nightly);
    }

    @Test
    void between_a_fixed_delays_fires_the_next_times_are_the_ones_it_made_not_a_projection() {
        // each run takes 1.5 s, so the second fire comes 2.5 s after the first, not the delay's 1 s
        String id = ScheduleHttp.create(node.api, """
                {"name":"delayed","trigger":{"type":"fixedDelay","delayMs":1000},
                 "job":{"jobType":"sleep","params":{"ms":1500}}}""");
        Await.until(
                Duration.ofSeconds(20),
                () -> fireTimes(id).size() >= 2,
                () -> history(id).toString());
        List<Instant> fires = fireTimes(id);
        Instant between = fires.get(0)
                .plusMillis(Duration.between(fires.get(0), fires.get(1)).toMillis() / 2);
        JsonNode explained = explainSchedule(id, between);
        assertThat(codes(explained)).as(explained.toString()).containsExactly("NOT_A_FIRE_TIME");
        assertThat(Instant.parse(
                        explained.at("/reasons/0/details/nextFireTimes/0").asText()))
                .as(explained.toString())
                .isEqualTo(fires.get(1));
        ScheduleHttp.delete(node.api, "/api/v1/schedules/" + id);
    }

    private static List<Instant> fireTimes(String id) {
        List<Instant> times = new java.util.ArrayList<>();
        for (JsonNode e : history(id)) {
            if (e.path("type").asText().equals("ScheduleFired"))
                times.add(Instant.parse(e.path("payload").path("fireTime").asText()));
        }
        return times;
    }

    @Test
    void a_paused_schedules_missed_fire_is_paused_and_a_stopped_scan_is_a_misfire_or_no_node_scanning() {
        String id = ScheduleHttp.create(node.api, """
                {"name":"paused","trigger":{"type":"fixedRate","intervalMs":1000},"job":{"jobType":"noop"}}""");
        awaitFirstFire(id);
        node.api.post("/api/v1/schedules/" + id + "/pause", "{}");
        Instant during = Instant.now().plusMillis(2500);
        sleep(4000);
        JsonNode paused = explainSchedule(id, during);
        assertThat(codes(paused)).first().isEqualTo("PAUSED");
        assertThat(paused.at("/reasons/0/details/by").asText()).isEqualTo("key:bootstrap-admin");
        // resumed: the times missed meanwhile are judged by the misfire policy, and no downtime is claimed, as no
        // node was down
        node.api.post("/api/v1/schedules/" + id + "/resume", "{}");
        Await.until(
                Duration.ofSeconds(10),
                () -> codes(explainSchedule(id, during)).contains("SKIPPED_MISFIRE"),
                () -> explainSchedule(id, during).toString());
        JsonNode resumed = explainSchedule(id, during);
        assertThat(codes(resumed)).as(resumed.toString()).containsExactly("PAUSED", "SKIPPED_MISFIRE");
        assertThat(resumed.at("/reasons/1/details/downtimeMs").asLong())
                .as(resumed.toString())
                .isZero();
        ScheduleHttp.delete(node.api, "/api/v1/schedules/" + id);

        // asked about now (the console's default), between fire times of a paused hourly cron: the pause first
        String hourly = ScheduleHttp.create(node.api, """
                {"name":"hourly","trigger":{"type":"cron","expression":"0 0 * * * ?"},"job":{"jobType":"noop"}}""");
        node.api.post("/api/v1/schedules/" + hourly + "/pause", "{}");
        Instant soon = Instant.now().plusMillis(500);
        // not within a second of a fire time (the top of an hour)
        int minute = soon.atZone(java.time.ZoneOffset.UTC).getMinute();
        if (minute == 0 || minute == 59) soon = soon.plusSeconds(150);
        JsonNode pausedNow = explainSchedule(hourly, soon);
        assertThat(codes(pausedNow)).containsExactly("PAUSED", "NOT_A_FIRE_TIME");
        assertThat(pausedNow.at("/reasons/1/message").asText()).contains("none fires while the schedule is paused");
        // asked without an instant: now, in milliseconds in the message as everywhere else (it had nanoseconds)
        JsonNode now = node.api.get("/api/v1/schedules/" + hourly + "/explain").body();
        assertThat(now.toString()).as(now.toString()).doesNotContainPattern("\\.\\d{4,}Z");
        node.api.post("/api/v1/schedules/" + hourly + "/resume", "{}");
        assertThat(codes(explainSchedule(hourly, Instant.now().plusMillis(500))))
                .doesNotContain("PAUSED");
        ScheduleHttp.delete(node.api, "/api/v1/schedules/" + hourly);

        String stalled = ScheduleHttp.create(node.api, """
                {"name":"stalled","trigger":{"type":"fixedRate","intervalMs":1000},"job":{"jobType":"noop"}}""");
        awaitFirstFire(stalled);
        ScanSchedules schedules = node.bean(ScanSchedules.class);
        schedules.pauseScanning();
        Instant missed;
        try {
            reportNow();
            // fires may have been made ahead before the stop (fire-ahead-ms); 4 s on is surely missed, and not the
            // catch-up fire
            missed = Instant.now().plusMillis(4000);
            sleep(6500);
            JsonNode noScan = explainSchedule(stalled, missed);
            assertThat(codes(noScan)).containsExactly("NO_NODE_SCANNING");
            assertThat(noScan.at("/reasons/0/message").asText()).contains("scanning is paused or switched off");
            // stuck since the first fire time not made, before the one asked about: the answer says since when
            String stuckSince = noScan.at("/reasons/0/since").asText();
            assertThat(Instant.parse(stuckSince)).isBefore(missed);
            assertThat(noScan.at("/reasons/0/message").asText()).contains("as every fire time since " + stuckSince);
            // asked between fire times (as the console asks about now) while a fire is due and not made: that fire,
            // not "no fire time here" with the times after it
            String sparse = ScheduleHttp.create(node.api, """
                    {"name":"sparse","trigger":{"type":"cron","expression":"*/5 * * * * ?"},"job":{"jobType":"noop"}}""");
            long due = Instant.parse(node.api
                            .get("/api/v1/schedules/" + sparse)
                            .body()
                            .path("nextFireTime")
                            .asText())
                    .toEpochMilli();
            sleep(Math.max(0, due + 2_500 - System.currentTimeMillis()));
            JsonNode between = explainSchedule(sparse, Instant.ofEpochMilli(due + 2_500));
            assertThat(codes(between)).as(between.toString()).containsExactly("NO_NODE_SCANNING");
            assertThat(Instant.parse(between.path("fireTime").asText()).toEpochMilli())
                    .isEqualTo(due);
            ScheduleHttp.delete(node.api, "/api/v1/schedules/" + sparse);
        } finally {
            schedules.resumeScanning();
        }
        Await.until(
                Duration.ofSeconds(10),
                () -> codes(explainSchedule(stalled, missed)).contains("SKIPPED_MISFIRE"),
                () -> explainSchedule(stalled, missed).toString());
        JsonNode misfire = explainSchedule(stalled, missed);
        assertThat(misfire.at("/reasons/0/details/downtimeMs").asLong()).isGreaterThan(2000);
        // from the first missed time, which FIRE_ONCE fired (its skip starts at the next one), to the scan that saw it
        java.util.regex.Matcher since = java.util.regex.Pattern.compile("missed since (\\S+?);")
                .matcher(misfire.at("/reasons/0/message").asText());
        assertThat(since.find()).as(misfire.toString()).isTrue();
        long recorded = Instant.parse(misfire.at("/reasons/0/since").asText()).toEpochMilli();
        assertThat(misfire.at("/reasons/0/details/downtimeMs").asLong())
                .as(misfire.toString())
                .isEqualTo(recorded - Instant.parse(since.group(1)).toEpochMilli());
        // the first missed time fired late, as the policy's catch-up, and says so
        JsonNode catchUp = explainSchedule(stalled, Instant.parse(since.group(1)));
        assertThat(codes(catchUp)).as(catchUp.toString()).containsExactly("FIRED");
        assertThat(catchUp.at("/reasons/0/details/catchUpOf").asText())
                .as(catchUp.toString())
                .contains("misfire policy FIRE_ONCE makes one catch-up fire for the first");
        assertThat(catchUp.at("/reasons/0/message").asText()).contains("as the catch-up fire of its misfire policy");
        // a time the skip covers, a second after its first: that time, not the recorded one a second away
        Instant firstSkipped =
                Instant.parse(misfire.at("/reasons/0/details/firstSkipped").asText());
        Instant second = firstSkipped.plusMillis(1000);
        assertThat(second)
                .isBefore(Instant.parse(
                        misfire.at("/reasons/0/details/nextFireTime").asText()));
        JsonNode covered = explainSchedule(stalled, second);
        assertThat(Instant.parse(covered.path("fireTime").asText()))
                .as(covered.toString())
                .isEqualTo(second);
        assertThat(codes(covered)).containsExactly("SKIPPED_MISFIRE");
        ScheduleHttp.delete(node.api, "/api/v1/schedules/" + stalled);
    }

    /**
     * A type paced by another node: its queue's head need not have waited past the bound (pacing keeps it at about
     * half), so only that node's {@code ax_nodes.held_back} says the fire is held back. Here no job of the type exists
     * at all: the answer can only come from the other node's row.
     */
    @Test
    void a_due_fire_of_a_type_another_node_paces_is_held_back_and_due_once_it_no_longer_does() {
        ScanSchedules schedules = node.bean(ScanSchedules.class);
        schedules.pauseScanning();
        String id = null;
        try {
            reportNow();
            // made while this node fires nothing: no job of the type is ever made, so none waits
            id = ScheduleHttp.create(node.api, """
                    {"name":"paced elsewhere","trigger":{"type":"fixedRate","intervalMs":1000},
                     "job":{"jobType":"count"}}""");
            Instant due = Instant.now().plusMillis(2000);
            sleep(3500);
            assertThat(node.jdbc()
                            .queryForObject("SELECT COUNT(*) FROM job_queue WHERE job_type = 'count'", Integer.class))
                    .isZero();

            otherNodeScansAndHoldsBack("default/count,default/another-type");
            JsonNode held = explainSchedule(id, due);
            assertThat(codes(held)).as(held.toString()).containsExactly("HELD_BACK");

            // the type held back in another namespace only: this schedule's fires are not
            otherNodeScansAndHoldsBack("team-x/count,default/another-type");
            JsonNode elsewhere = explainSchedule(id, due);
            assertThat(codes(elsewhere)).as(elsewhere.toString()).containsExactly("DUE");

            otherNodeScansAndHoldsBack("default/another-type");
            JsonNode dueNow = explainSchedule(id, due);
            assertThat(codes(dueNow)).as(dueNow.toString()).containsExactly("DUE");
        } finally {
            node.jdbc().update("DELETE FROM ax_nodes WHERE node_id = 'pacing-node'");
            if (id != null) ScheduleHttp.delete(node.api, "/api/v1/schedules/" + id);
            schedules.resumeScanning();
        }
    }

    /** A second live node, scanning schedules this moment, that reports {@code heldBack} (comma-separated) paced. */
    private static void otherNodeScansAndHoldsBack(String heldBack) {
        node.jdbc().update("DELETE FROM ax_nodes WHERE node_id = 'pacing-node'");
        node.jdbc()
                .update(
                        "INSERT INTO ax_nodes (node_id, scanning, last_scan_at, last_fire_pass_at, reported_at,"
                                + " started_at, pools, held_back) SELECT 'pacing-node', 1, " + DatabaseTime.NOW_MS
                                + ", " + DatabaseTime.NOW_MS + ", " + DatabaseTime.NOW_MS + ", started_at, pools, ?"
                                + " FROM ax_nodes WHERE node_id = 'explain-node'",
                        heldBack);
    }

    @Test
    void fires_while_the_last_job_runs_are_skipped_or_queued_by_the_overlap_policy() {
        // the first job of each runs for a minute (canceled below), so every later fire meets it running
        String skip = ScheduleHttp.create(node.api, """
                {"name":"overlap-skip","trigger":{"type":"fixedRate","intervalMs":1000},
                 "job":{"jobType":"sleep","params":{"ms":60000}},"overlapPolicy":"SKIP_IF_RUNNING"}""");
        String queue = ScheduleHttp.create(node.api, """
                {"name":"overlap-queue","trigger":{"type":"fixedRate","intervalMs":1000},
                 "job":{"jobType":"sleep","params":{"ms":60000}},"overlapPolicy":"QUEUE"}""");
        Instant firstSkip = awaitHistory(skip, "ScheduleFireSkipped");
        Instant firstQueued = awaitHistory(queue, "ScheduleFireQueued");
        JsonNode skipped = explainSchedule(skip, firstSkip);
        assertThat(codes(skipped)).containsExactly("SKIPPED_OVERLAP");
        String running = skipped.at("/reasons/0/details/runningJobId").asText();
        assertThat(running).isNotEmpty();
        JsonNode queued = explainSchedule(queue, firstQueued);
        assertThat(codes(queued)).containsExactly("QUEUED");
        String waitedFor = queued.at("/reasons/0/details/waitingForJobId").asText();
        assertThat(waitedFor).isNotEmpty();

        // fires missed while no node scanned: FIRE_ONCE plans one catch-up fire, which meets the running job and
        // is skipped by the overlap policy; the misfire's answer says that fire did not happen after all
        ScanSchedules schedules = node.bean(ScanSchedules.class);
        schedules.pauseScanning();
        try {
            sleep(4_000);
        } finally {
            schedules.resumeScanning();
        }
        Await.until(
                Duration.ofSeconds(20),
                () -> misfireSkip(skip) != null,
                () -> history(skip).toString());
        JsonNode missed = explainSchedule(skip, Instant.parse(misfireSkip(skip).asText()));
        assertThat(codes(missed)).as(missed.toString()).containsExactly("SKIPPED_MISFIRE");
        assertThat(missed.at("/reasons/0/message").asText())
                .as(missed.toString())
                .contains("misfire policy FIRE_ONCE")
                .contains("that catch-up fire was itself skipped, at ")
                .contains("overlap policy");
        assertThat(missed.at("/reasons/0/details/catchUpSkipped").asText()).contains("overlap policy");

        ScheduleHttp.delete(node.api, "/api/v1/schedules/" + skip);
        ScheduleHttp.delete(node.api, "/api/v1/schedules/" + queue);
        // the held fire was never made: the delete dropped it, and the answer says so
        JsonNode dropped = explainSchedule(queue, firstQueued);
        assertThat(codes(dropped)).as(dropped.toString()).containsExactly("QUEUED");
        assertThat(dropped.at("/reasons/0/message").asText())
                .contains("the schedule was deleted by key:bootstrap-admin")
                .contains("so it never fired");
        assertThat(dropped.at("/reasons/0/details/deletedAt").asText()).isNotEmpty();
        for (String job : List.of(running, waitedFor)) {
            node.api.post("/api/v1/jobs/" + job + "/cancel", "{\"reason\":\"test over\"}");
            node.api.awaitStatus(job, "CANCELED");
        }
        // the record still answers after the delete, for the fire time asked about
        assertThat(codes(explainSchedule(queue, firstQueued))).containsExactly("QUEUED");
    }

    @Test
    void bad_input_is_a_problem_naming_the_field_and_unknown_ids_are_404() {
        Api.Response bad = node.api.get("/api/v1/schedules/x/explain?at=yesterday");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.body().toString()).contains("at");
        for (String far : new String[] {"-1000000000-01-01T00:00:00Z", "+999999999-12-31T23:59:59Z"}) {
            Api.Response out = node.api.get("/api/v1/schedules/x/explain?at=" + far);
            assertThat(out.status()).as(far).isEqualTo(400);
            assertThat(out.body().at("/errors/0/field").asText()).isEqualTo("at");
        }
        assertThat(node.api.get("/api/v1/jobs/no-such-job/explain").status()).isEqualTo(404);
        assertThat(node.api.get("/api/v1/schedules/no-such/explain").status()).isEqualTo(404);
    }

    /**
     * A schedule with more fire records than the explain reads around the moment asked (its window): answers at
     * either end name the right fire, and a pause recorded long before the window still counts.
     */
    @Test
    void a_schedule_with_many_fire_records_is_explained_from_a_window_with_its_whole_configuration() {
        String id = ScheduleHttp.create(node.api, """
                {"name":"long-lived","trigger":{"type":"cron","expression":"0 0 0 1 1 ? 2099"},
                 "job":{"jobType":"noop"}}""");
        // its record as the store would hold it after long firing: made two hours ago, paused first (seq 1), then
        // 1,500 fires, one a second, written straight into the store (the aggregate is never asked to act on them)
        Instant t0 = Instant.now().minusSeconds(7_200).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        org.springframework.jdbc.core.JdbcTemplate jdbc = node.jdbc();
        jdbc.update(
                "UPDATE DomainEventEntry SET timeStamp = ? WHERE aggregateIdentifier = ? AND sequenceNumber = 0",
                AXON_TIME.format(t0.minusSeconds(120)),
                id);
        jdbc.update(
                "INSERT INTO DomainEventEntry (aggregateIdentifier, sequenceNumber, type, eventIdentifier, metaData,"
                        + " payload, payloadType, timeStamp) VALUES (?, 1, 'Schedule', ?, '{}', ?, ?, ?)",
                id,
                UUID.randomUUID().toString(),
                "{\"scheduleId\":\"" + id + "\"}",
                "io.axscheduler.api.schedule.SchedulePaused",
                AXON_TIME.format(t0.minusSeconds(60)));
        List<Object[]> fires = new ArrayList<>();
        for (int i = 1; i <= 1_500; i++)
            fires.add(fireRow(id, i, t0.plusSeconds(i), t0.plusSeconds(i).plusMillis(5)));
        // then an outage of 1,200 s, whose fire times FIRE_ALL fires at once when the scan comes back: recorded
        // after the last event before them, far more than the window's 500 on
        Instant back = t0.plusSeconds(2_700).plusMillis(500);
        for (int i = 1_501; i <= 2_700; i++) fires.add(fireRow(id, i, t0.plusSeconds(i), back));
        jdbc.batchUpdate(
                "INSERT INTO DomainEventEntry (aggregateIdentifier, sequenceNumber, type, eventIdentifier, metaData,"
                        + " payload, payloadType, timeStamp) VALUES (?, ?, 'Schedule', ?, '{}', ?, ?, ?)",
                fires);
        for (int i : new int[] {3, 750, 1_497, 1_600, 2_650}) {
            JsonNode answer = explainSchedule(id, t0.plusSeconds(i));
            assertThat(Instant.parse(answer.path("fireTime").asText()))
                    .as(answer.toString())
                    .isEqualTo(t0.plusSeconds(i));
            assertThat(codes(answer)).as(answer.toString()).containsExactly("PAUSED", "FIRED");
            assertThat(answer.toString()).contains("\"jobId\":\"job-" + i + "\"");
            if (i > 1_500) assertThat(answer.toString()).contains("after its time");
        }
        JsonNode changes = node.api.get("/api/v1/schedules/" + id + "/changes").body();
        assertThat(changes.path("changes").findValuesAsText("change")).containsExactly("CREATED", "PAUSED");
    }

    /** The store's row of fire {@code i} (sequence number i + 1) of schedule {@code id}, recorded at {@code at}. */
    private static Object[] fireRow(String id, int i, Instant fire, Instant at) {
        return new Object[] {
            id,
            1L + i,
            UUID.randomUUID().toString(),
            "{\"scheduleId\":\"" + id + "\",\"fireTime\":\"" + fire + "\",\"kind\":\"SCHEDULED\",\"jobId\":\"job-" + i
                    + "\",\"nextFireTime\":\"" + fire.plusSeconds(1) + "\",\"namespace\":\"default\"}",
            "io.axscheduler.api.schedule.ScheduleFired",
            AXON_TIME.format(at)
        };
    }

    /** How Axon's JDBC store writes an event's timestamp. */
    private static final java.time.format.DateTimeFormatter AXON_TIME = java.time.format.DateTimeFormatter.ofPattern(
                    "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(java.time.ZoneOffset.UTC);

    private static JsonNode explainSchedule(String id, Instant at) {
        Api.Response r = node.api.get("/api/v1/schedules/" + id + "/explain?at=" + at);
        assertThat(r.status()).as(r.body().toString()).isEqualTo(200);
        return r.body();
    }

    /** The schedule's first ScheduleFired payload, once it is in its history. */
    private static JsonNode awaitFirstFire(String id) {
        awaitHistory(id, "ScheduleFired");
        for (JsonNode e : history(id)) {
            if (e.path("type").asText().equals("ScheduleFired")) return e.path("payload");
        }
        throw new AssertionError("no fire");
    }

    /** Waits for an event of {@code type} in the schedule's history and returns its fire time. */
    private static Instant awaitHistory(String id, String type) {
        Await.until(
                Duration.ofSeconds(20),
                () -> {
                    for (JsonNode e : history(id)) if (e.path("type").asText().equals(type)) return true;
                    return false;
                },
                () -> history(id).toString());
        for (JsonNode e : history(id)) {
            if (e.path("type").asText().equals(type))
                return Instant.parse(e.at("/payload/fireTime").asText());
        }
        throw new AssertionError(type);
    }

    /** The first skipped time of the schedule's first misfire skip, or null. */
    private static JsonNode misfireSkip(String id) {
        for (JsonNode e : history(id)) {
            if (e.path("type").asText().equals("ScheduleFireSkipped")
                    && e.at("/payload/reason").asText().contains("misfire policy")) return e.at("/payload/fireTime");
        }
        return null;
    }

    private static JsonNode history(String id) {
        return node.api.get("/api/v1/schedules/" + id + "/history").body().path("events");
    }

    private static String register(String app, List<String> types, String address) {
        Api.Response r = node.api.post(
                "/api/v1/workers/register",
                "{\"app\":\"" + app + "\",\"address\":\"" + address + "\",\"jobTypes\":" + Api.JSON.valueToTree(types)
                        + ",\"capacity\":4}");
        assertThat(r.status()).as(r.body().toString()).isEqualTo(201);
        return r.text("workerId");
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
