package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import io.axscheduler.api.schedule.HoldBack;
import io.axscheduler.scheduler.claim.ScanDueJobs;
import io.axscheduler.scheduler.fire.FireDueSchedules;
import io.axscheduler.scheduler.fire.ScanSchedules;
import io.axscheduler.scheduler.observe.ReportNodeStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.slf4j.LoggerFactory;

/**
 * Overload is bounded and visible: while the jobs of a type wait past {@code hold-back-after-ms}, its schedules stop
 * making more of them (other types fire on), the schedule shows in {@code ax_schedules_behind}, and once the type
 * catches up the late fire times are made as the misfire policy says, not all at once. A type that runs slower than
 * its schedules fall due is paced: fed at the rate its jobs are claimed, not held until its backlog is gone and then
 * fired all at once.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ScheduleHoldBackIT {

    static Node node;
    static final ListAppender<ILoggingEvent> scanLog = new ListAppender<>();

    @BeforeAll
    static void start() {
        node = Node.start(
                TestDatabase.freshDatabase("schedule_hold_back"),
                "node-a",
                Map.of(
                        "ax.scheduler.execution.threads-per-type", "1",
                        "ax.scheduler.schedules.hold-back-after-ms", "1000",
                        "ax.scheduler.schedules.min-interval-ms", "500",
                        "ax.scheduler.schedules.misfire-threshold-ms", "1000",
                        "ax.observe.schedule-behind-ms", "1000",
                        "ax.observe.gauge-refresh-ms", "300"));
        // after the start, whose logging set-up would drop an appender added before it
        scanLog.start();
        ((Logger) LoggerFactory.getLogger(ScanSchedules.class)).addAppender(scanLog);
    }

    @AfterAll
    static void stop() {
        ((Logger) LoggerFactory.getLogger(ScanSchedules.class)).detachAppender(scanLog);
        if (node != null) node.close();
    }

    /** The scan's warnings that schedules of {@code key} are held back, so far. */
    private static List<String> holdWarnings(String key) {
        return scanLog.list.stream()
                .map(ILoggingEvent::getFormattedMessage)
                .filter(m -> m.startsWith("schedules held back") && m.contains(key))
                .toList();
    }

    private static String schedule(String name, String job) {
        var made = node.api.post("/api/v1/schedules", """
                {"name":"%s","trigger":{"type":"fixedRate","intervalMs":500},"job":%s,"overlapPolicy":"ALLOW"}""".formatted(name, job));
        assertThat(made.status()).as(made.body().toString()).isEqualTo(201);
        return made.body().path("scheduleId").asText();
    }

    private static int jobsOf(String scheduleId) {
        return node.jdbc()
                .queryForObject("SELECT COUNT(*) FROM job_queue WHERE schedule_id = ?", Integer.class, scheduleId);
    }

    private static Set<String> heldBack() {
        return node.bean(ScanSchedules.class).heldBack();
    }

    private static int waiting(String type) {
        return node.jdbc()
                .queryForObject(
                        "SELECT COUNT(*) FROM job_queue WHERE claimable = 1 AND job_type = ?", Integer.class, type);
    }

    private static int made(String type) {
        return node.jdbc().queryForObject("SELECT COUNT(*) FROM job_queue WHERE job_type = ?", Integer.class, type);
    }

    @Test
    @Order(1)
    void a_type_slower_than_its_schedules_is_fed_at_the_rate_its_jobs_are_claimed() throws Exception {
        // one thread, jobs of 100 ms: ten a second, against 60 fires a second of 30 schedules
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 30; i++) ids.add(schedule("paced-" + i, "{\"jobType\":\"sleep\",\"params\":{\"ms\":100}}"));
        try {
            fedAtItsPace();
        } finally {
            // paused and drained even when a check failed, so the next test starts from a quiet type
            for (String id : ids)
                assertThat(node.api
                                .post("/api/v1/schedules/" + id + "/pause", "{}")
                                .status())
                        .isEqualTo(200);
            node.jdbc()
                    .queryForList(
                            "SELECT job_id FROM job_queue WHERE job_type = 'sleep' AND claimable = 1", String.class)
                    .forEach(id -> node.api.post("/api/v1/jobs/" + id + "/cancel", "{}"));
        }
        Await.until(
                Duration.ofSeconds(20), () -> !heldBack().contains("default/sleep"), () -> "held back: " + heldBack());
        node.bean(ReportNodeStatus.class).report();
        assertThat(heldBackReported()).isEmpty();
    }

    private void fedAtItsPace() throws InterruptedException {
        Await.until(
                Duration.ofSeconds(20), () -> heldBack().contains("default/sleep"), () -> "held back: " + heldBack());
        // the backlog made before the hold drains, at the nodes' pace, with nothing added on top of it
        Await.until(Duration.ofSeconds(30), () -> waiting("sleep") < 15, () -> "waiting " + waiting("sleep"));

        // then the type stays held back and is fed as it is taken: never a stop while the thread runs, never a burst
        // of everything due after an empty queue (a draft that let the type fire freely once its queue was empty
        // peaked at 147 here; a schedule 1 s behind makes two or three jobs a fire, which a pass may overshoot by)
        int before = made("sleep"), most = 0;
        long until = System.currentTimeMillis() + 6_000;
        while (System.currentTimeMillis() < until) {
            most = Math.max(most, waiting("sleep"));
            Thread.sleep(100);
        }
        assertThat(heldBack()).contains("default/sleep");
        assertThat(holdWarnings("default/sleep")).hasSize(1);
        // the node says so in its row, which explanations read on any node
        node.bean(ReportNodeStatus.class).report();
        assertThat(heldBackReported()).isEqualTo("default/sleep");
        assertThat(most).as("most jobs waiting").isLessThan(80);
        // the thread runs at most 60 in 6 s, fewer on a busy machine; fed at its pace it gets well over half (a
        // type that stopped firing while its thread ran would get next to none)
        assertThat(made("sleep") - before).as("jobs made in 6 s").isGreaterThanOrEqualTo(30);
    }

    private static String heldBackReported() {
        return node.jdbc().queryForObject("SELECT held_back FROM ax_nodes WHERE node_id = 'node-a'", String.class);
    }

    @Test
    @Order(2)
    void a_type_whose_jobs_wait_too_long_stops_firing_until_it_catches_up() throws Exception {
        // one thread for sleep, each job a minute long: from the second fire on, the jobs wait
        String slow = schedule("slow", "{\"jobType\":\"sleep\",\"params\":{\"ms\":60000}}");
        String quick = schedule("quick", "{\"jobType\":\"noop\"}");
        Await.until(
                Duration.ofSeconds(20), () -> heldBack().contains("default/sleep"), () -> "held back: " + heldBack());
        assertThat(heldBack()).doesNotContain("default/noop");

        int slowHeld = jobsOf(slow), quickHeld = jobsOf(quick);
        Thread.sleep(3_000);
        // a fire made ahead just before the hold may still come; six more would be a fire every half second
        assertThat(jobsOf(slow)).isLessThanOrEqualTo(slowHeld + 1);
        assertThat(jobsOf(quick)).isGreaterThanOrEqualTo(quickHeld + 4);
        Await.until(
                Duration.ofSeconds(10),
                () -> Scrape.of(node).value("ax_schedules_behind", "namespace", "default") >= 1,
                () -> "ax_schedules_behind " + Scrape.of(node).value("ax_schedules_behind", "namespace", "default"));

        // why the schedule did not fire at its last due time: held back
        JsonNode explained = node.api
                .get("/api/v1/schedules/" + slow + "/explain?at="
                        + Instant.now().minusMillis(300))
                .body();
        assertThat(explained.toString()).contains("HELD_BACK");

        // the backlog goes: the type is no longer behind, and the schedule fires again, the times it missed (six
        // or more) as one catch-up fire (FIRE_ONCE), not each
        int beforeRelease = jobsOf(slow);
        node.jdbc()
                .queryForList(
                        "SELECT job_id FROM job_queue WHERE schedule_id = ? AND status IN ('WAITING','CLAIMED','RUNNING')",
                        String.class,
                        slow)
                .forEach(id -> assertThat(node.api
                                .post("/api/v1/jobs/" + id + "/cancel", "{}")
                                .status())
                        .isLessThan(300));
        Await.until(
                Duration.ofSeconds(20), () -> !heldBack().contains("default/sleep"), () -> "held back: " + heldBack());
        Await.until(Duration.ofSeconds(20), () -> jobsOf(slow) > beforeRelease, () -> "no fire after the release");
        assertThat(jobsOf(slow) - beforeRelease).isLessThan(5);
        // the catch-up's skip says why the times were missed: the type was held back, no node was down
        Await.until(
                Duration.ofSeconds(10),
                () -> skipReasons(slow).stream().anyMatch(r -> r.contains("was held back")),
                () -> "skips: " + skipReasons(slow));
    }

    private static List<String> skipReasons(String scheduleId) {
        List<String> reasons = new java.util.ArrayList<>();
        for (int page = 0; page < 20; page++) {
            JsonNode history = node.api
                    .get("/api/v1/schedules/" + scheduleId + "/history?size=500&page=" + page)
                    .body();
            history.path("events").forEach(e -> {
                if (e.path("type").asText().equals("ScheduleFireSkipped"))
                    reasons.add(e.path("payload").path("reason").asText());
            });
            if (!history.path("hasMore").asBoolean()) break;
        }
        return reasons;
    }

    @Test
    @Order(3)
    void jobs_due_later_do_not_keep_a_type_held_back() throws Exception {
        for (String id :
                node.jdbc().queryForList("SELECT schedule_id FROM schedules WHERE state = 'ACTIVE'", String.class))
            assertThat(node.api.post("/api/v1/schedules/" + id + "/pause", "{}").status())
                    .isEqualTo(200);
        cancelWaitingAndRunning("sleep");
        Await.until(
                Duration.ofSeconds(20), () -> !heldBack().contains("default/sleep"), () -> "held back: " + heldBack());

        // two hundred jobs due in ten minutes: waiting, but no backlog
        StringBuilder later = new StringBuilder("{\"jobs\":[");
        for (int i = 0; i < 200; i++)
            later.append(i == 0 ? "" : ",").append("{\"jobType\":\"sleep\",\"params\":{\"ms\":1},\"delayMs\":600000}");
        assertThat(node.api
                        .post("/api/v1/jobs/batch", later.append("]}").toString())
                        .status())
                .isEqualTo(200);
        // the one thread of sleep taken by a job of a minute, a due job waiting past the bound behind it
        String blocking = node.api.submit("{\"jobType\":\"sleep\",\"params\":{\"ms\":60000}}");
        node.api.awaitStatus(blocking, "RUNNING");
        node.api.submit("{\"jobType\":\"sleep\",\"params\":{\"ms\":1}}");
        String schedule = schedule("after-the-block", "{\"jobType\":\"sleep\",\"params\":{\"ms\":1}}");
        Await.until(
                Duration.ofSeconds(20), () -> heldBack().contains("default/sleep"), () -> "held back: " + heldBack());

        // the block goes: the type catches up and its schedule fires on, the jobs due later still waiting
        assertThat(node.api.post("/api/v1/jobs/" + blocking + "/cancel", "{}").status())
                .isLessThan(300);
        Await.until(
                Duration.ofSeconds(20), () -> !heldBack().contains("default/sleep"), () -> "held back: " + heldBack());
        int fired = jobsOf(schedule);
        Await.until(Duration.ofSeconds(10), () -> jobsOf(schedule) >= fired + 4, () -> jobsOf(schedule) + " jobs");
        assertThat(waiting("sleep")).isGreaterThanOrEqualTo(200);
        assertThat(node.api
                        .post("/api/v1/schedules/" + schedule + "/pause", "{}")
                        .status())
                .isEqualTo(200);
    }

    @Test
    @Order(4)
    void a_job_no_worker_can_take_does_not_hold_its_type_back() throws Exception {
        // bound to an app with no worker: it waits for one, however long; noop's own jobs run at once. (A worker of
        // another app runs noop too, or a job bound to an app could not name a type the nodes run.)
        Api.Response elsewhere = node.api.post(
                "/api/v1/workers/register",
                "{\"app\":\"elsewhere\",\"address\":\"http://127.0.0.1:9\",\"jobTypes\":[\"noop\"],\"capacity\":1}");
        assertThat(elsewhere.status()).as(elsewhere.body().toString()).isEqualTo(201);
        String orphan = node.api.submit("{\"jobType\":\"noop\",\"executorApp\":\"gone\"}");
        String schedule = schedule("beside-the-orphan", "{\"jobType\":\"noop\"}");
        Thread.sleep(3_000);
        assertThat(heldBack()).doesNotContain("default/noop");
        int fired = jobsOf(schedule);
        Await.until(Duration.ofSeconds(10), () -> jobsOf(schedule) >= fired + 4, () -> jobsOf(schedule) + " jobs");
        assertThat(node.api.get("/api/v1/jobs/" + orphan).text("status")).isEqualTo("WAITING");
        assertThat(node.api
                        .post("/api/v1/schedules/" + schedule + "/pause", "{}")
                        .status())
                .isEqualTo(200);
        assertThat(node.api.post("/api/v1/jobs/" + orphan + "/cancel", "{}").status())
                .isLessThan(300);
        ScheduleHttp.delete(node.api, "/api/v1/workers/" + elsewhere.text("workerId"));
    }

    @Test
    @Order(5)
    void a_job_whose_namespace_has_no_worker_for_its_type_does_not_hold_the_type_back_elsewhere() throws Exception {
        FireDueSchedules fire = node.bean(FireDueSchedules.class);
        ScanDueJobs scan = node.pauseJobScan();
        List<String> jobs = new ArrayList<>();
        try {
            // team-b's only worker of the type registered, took a job not bound to an app, and went away
            String ofB = register("team-b");
            jobs.add(node.api.submit("{\"jobType\":\"remote-x\",\"namespace\":\"team-b\"}"));
            node.jdbc().update("DELETE FROM workers WHERE worker_id = ?", ofB);
            String ofA = register("team-a");
            Thread.sleep(1_500);
            // no one can take it: team-a's worker never runs a job of team-b
            assertThat(fire.typesBehind()).doesNotContain("team-b/remote-x", "team-a/remote-x");
            // one team-a's worker could take, waiting as long (no scan claims it), holds the type back
            jobs.add(node.api.submit("{\"jobType\":\"remote-x\",\"namespace\":\"team-a\"}"));
            Thread.sleep(1_500);
            assertThat(fire.typesBehind()).contains("team-a/remote-x").doesNotContain("team-b/remote-x");
            node.jdbc().update("DELETE FROM workers WHERE worker_id = ?", ofA);
        } finally {
            jobs.forEach(id -> node.api.post("/api/v1/jobs/" + id + "/cancel", "{}"));
            scan.resumeScanning();
        }
    }

    @Test
    @Order(6)
    void a_type_behind_in_one_namespace_holds_back_no_other_namespaces_schedules_of_it() throws Exception {
        // team-x's jobs of noop are bound to its own app, whose only worker cannot be reached: they wait, behind
        String slow = register("slow-x", "noop", "team-x");
        List<String> behind = new ArrayList<>();
        String schedule = null;
        try {
            for (int i = 0; i < 5; i++) {
                behind.add(
                        node.api.submit("{\"jobType\":\"noop\",\"executorApp\":\"slow-x\",\"namespace\":\"team-x\"}"));
            }
            Await.until(
                    Duration.ofSeconds(20), () -> heldBack().contains("team-x/noop"), () -> "held back: " + heldBack());
            // the default namespace's noop runs on the nodes' own pool, which has room: its schedules fire freely
            schedule = schedule("noop-beside-team-x", "{\"jobType\":\"noop\"}");
            String id = schedule;
            int fired = jobsOf(id);
            Await.until(Duration.ofSeconds(10), () -> jobsOf(id) >= fired + 6, () -> jobsOf(id) + " jobs");
            assertThat(heldBack()).contains("team-x/noop").doesNotContain("default/noop");
            // team-x has no schedule of noop: nothing of it is held back, and the log does not say otherwise
            assertThat(holdWarnings("team-x/noop")).isEmpty();
            // still waiting (or claimed a moment by a pass that hands it back when the push fails)
            assertThat(behind.stream()
                            .map(j -> node.api.get("/api/v1/jobs/" + j).text("status"))
                            .distinct())
                    .isSubsetOf("WAITING", "CLAIMED");
        } finally {
            if (schedule != null) node.api.post("/api/v1/schedules/" + schedule + "/pause", "{}");
            behind.forEach(j -> node.api.post("/api/v1/jobs/" + j + "/cancel", "{}"));
            ScheduleHttp.delete(node.api, "/api/v1/workers/" + slow);
        }
    }

    @Test
    @Order(7)
    void a_namespace_behind_another_namespaces_older_backlog_of_the_type_is_found_too() throws Exception {
        FireDueSchedules fire = node.bean(FireDueSchedules.class);
        ScanDueJobs scan = node.pauseJobScan();
        List<String> jobs = new ArrayList<>();
        List<String> workers = new ArrayList<>();
        try {
            for (String namespace : List.of("team-c", "team-d")) workers.add(register("app-y", "remote-y", namespace));
            // team-c's backlog fills the type's head (its 20 oldest jobs); team-d's one job waits behind it
            for (int i = 0; i < HoldBack.HEAD_OF_QUEUE + 5; i++)
                jobs.add(node.api.submit("{\"jobType\":\"remote-y\",\"namespace\":\"team-c\"}"));
            Thread.sleep(300);
            jobs.add(node.api.submit("{\"jobType\":\"remote-y\",\"namespace\":\"team-d\"}"));
            Thread.sleep(1_500);
            assertThat(fire.typesBehind()).contains("team-c/remote-y", "team-d/remote-y");
        } finally {
            jobs.forEach(id -> node.api.post("/api/v1/jobs/" + id + "/cancel", "{}"));
            workers.forEach(w -> ScheduleHttp.delete(node.api, "/api/v1/workers/" + w));
            scan.resumeScanning();
        }
    }

    private static String register(String namespace) {
        return register("remote-app", "remote-x", namespace);
    }

    /** A worker of {@code app} running {@code type} in {@code namespace} at an address nothing answers; its id. */
    private static String register(String app, String type, String namespace) {
        var registered = node.api.post(
                "/api/v1/workers/register",
                "{\"app\":\"" + app + "\",\"address\":\"http://127.0.0.1:9\",\"jobTypes\":[\"" + type
                        + "\"],\"capacity\":1,\"namespace\":\"" + namespace + "\"}");
        assertThat(registered.status()).as(registered.body().toString()).isEqualTo(201);
        return registered.text("workerId");
    }

    private static void cancelWaitingAndRunning(String type) {
        node.jdbc()
                .queryForList(
                        "SELECT job_id FROM job_queue WHERE job_type = ? AND status IN ('WAITING','CLAIMED','RUNNING')",
                        String.class,
                        type)
                .forEach(id -> node.api.post("/api/v1/jobs/" + id + "/cancel", "{}"));
    }
}
