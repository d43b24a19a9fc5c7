package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.axscheduler.api.worker.CallbackSignature;
import io.axscheduler.query.job.OldestDue;
import io.axscheduler.scheduler.SchedulerCommands;
import io.axscheduler.scheduler.claim.ScanDueJobs;
import io.axscheduler.scheduler.fire.ScanSchedules;
import io.axscheduler.scheduler.observe.ReportNodeStatus;
import io.axscheduler.scheduler.remote.AbandonWorkerlessJobs;
import io.axscheduler.scheduler.remote.RemoteProperties;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * Alert rules raised and resolved against a local webhook receiver and a local SMTP server, one rule type at a time:
 * each test makes the condition hold, waits for the signed FIRING delivery, clears it and waits for RESOLVED. Also:
 * the other channel formats, deduplication, the rate limit, a failing webhook retried as a job, the audit events, and
 * the rules API.
 */
class AlertsIT {

    static final String HOOK = "/hook";
    static final String SECRET = "hook-secret";
    static Node node;
    static WebhookReceiver receiver;
    static SmtpReceiver smtp;
    final List<String> rules = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        receiver = new WebhookReceiver();
        smtp = new SmtpReceiver();
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("ax.alerts.evaluate-ms", "300");
        settings.put("ax.alerts.event-window-ms", "3000");
        settings.put("ax.alerts.rate-limit.per-channel", "1000");
        settings.put("ax.observe.node-report-ms", "300");
        settings.put("ax.scheduler.workers.heartbeat-interval-ms", "500");
        settings.put("ax.scheduler.workers.missed-heartbeats", "40");
        settings.put("ax.alerts.channels.hook.type", "webhook");
        settings.put("ax.alerts.channels.hook.url", receiver.url(HOOK));
        settings.put("ax.alerts.channels.hook.secret", SECRET);
        settings.put("ax.alerts.channels.capped.type", "webhook");
        settings.put("ax.alerts.channels.capped.url", receiver.url("/capped"));
        settings.put("ax.alerts.channels.capped.max-per-window", "1");
        settings.put("ax.alerts.channels.flaky-hook.type", "webhook");
        settings.put("ax.alerts.channels.flaky-hook.url", receiver.url("/flaky"));
        settings.put("ax.alerts.channels.ordered.type", "webhook");
        settings.put("ax.alerts.channels.ordered.url", receiver.url("/ordered"));
        settings.put("ax.alerts.channels.slack.type", "slack");
        settings.put("ax.alerts.channels.slack.url", receiver.url("/slack"));
        settings.put("ax.alerts.channels.ding.type", "dingtalk");
        settings.put("ax.alerts.channels.ding.url", receiver.url("/ding"));
        settings.put("ax.alerts.channels.ding.secret", "ding-secret");
        settings.put("ax.alerts.channels.feishu.type", "feishu");
        settings.put("ax.alerts.channels.feishu.url", receiver.url("/feishu"));
        settings.put("ax.alerts.channels.feishu.secret", "feishu-secret");
        settings.put("ax.alerts.channels.mail.type", "email");
        settings.put("ax.alerts.channels.mail.to", "ops@example.com");
        settings.put("ax.alerts.channels.mail.from", "ax@example.com");
        settings.put("spring.mail.host", "127.0.0.1");
        settings.put("spring.mail.port", Integer.toString(smtp.port()));
        node = Node.start(TestDatabase.freshDatabase("alerts"), "alerts-node", settings);
    }

    @AfterAll
    static void stop() throws Exception {
        node.close();
        receiver.close();
        smtp.close();
    }

    @AfterEach
    void removeRules() {
        rules.forEach(name -> ScheduleHttp.delete(node.api, "/api/v1/alerts/rules/" + name));
        rules.clear();
    }

    private void rule(String name, String type, String filter, Long threshold, String channels) {
        rule(name, type, filter, threshold, channels, "");
    }

    /** {@code more}: further fields of the body, each with a leading comma. */
    private void rule(String name, String type, String filter, Long threshold, String channels, String more) {
        String body = "{\"name\":\"" + name + "\",\"type\":\"" + type + "\",\"filter\":" + filter + ",\"threshold\":"
                + threshold + ",\"forMs\":0,\"channels\":" + channels + more + "}";
        Api.Response r = node.api.post("/api/v1/alerts/rules", body);
        assertThat(r.status()).as(r.body().toString()).isEqualTo(201);
        rules.add(name);
    }

    /** Waits for a delivery of the rule's alert in {@code state} to the webhook, checks its signature, returns it. */
    private static JsonNode awaitHook(String rule, String state) {
        Await.until(
                Duration.ofSeconds(30),
                () -> !receiver.of(HOOK, rule, state).isEmpty(),
                () -> receiver.at(HOOK).stream()
                                .map(WebhookReceiver.Received::body)
                                .toList() + " alerts: "
                        + node.api.get("/api/v1/alerts").body());
        WebhookReceiver.Received got = receiver.of(HOOK, rule, state).get(0);
        long ts = Long.parseLong(got.header(CallbackSignature.TIMESTAMP_HEADER));
        assertThat(CallbackSignature.matches(SECRET, ts, got.body(), got.header(CallbackSignature.SIGNATURE_HEADER)))
                .as("signed like callbacks")
                .isTrue();
        JsonNode json = got.json();
        assertThat(json.path("alertId").asText()).isNotEmpty();
        assertThat(json.path("at").asText()).isNotEmpty();
        assertThat(json.has("details")).isTrue();
        return json;
    }

    /** As {@link #awaitHook}, the first delivery whose body names {@code about}. */
    private static JsonNode awaitHookAbout(String rule, String state, String about) {
        Await.until(
                Duration.ofSeconds(30),
                () -> receiver.of(HOOK, rule, state).stream()
                        .anyMatch(r -> r.body().contains(about)),
                () -> receiver.at(HOOK).stream()
                                .map(WebhookReceiver.Received::body)
                                .toList() + " alerts: "
                        + node.api.get("/api/v1/alerts").body());
        return receiver.of(HOOK, rule, state).stream()
                .filter(r -> r.body().contains(about))
                .findFirst()
                .orElseThrow()
                .json();
    }

    /** A client whose key is a VIEWER of {@code namespace} only. */
    private static Api viewer(String namespace) {
        Api.Response made = node.api.post(
                "/api/v1/admin/api-keys",
                "{\"name\":\"viewer-" + namespace + "-" + System.nanoTime() + "\",\"grants\":[{\"namespace\":\""
                        + namespace + "\",\"role\":\"VIEWER\"}]}");
        assertThat(made.status()).as(made.body().toString()).isEqualTo(201);
        return node.api.as(made.text("key"));
    }

    private static void pausedJobScan(Runnable body) {
        ScanDueJobs scan = node.bean(ScanDueJobs.class);
        scan.pauseScanning();
        try {
            // the node says at once that it no longer scans, as it would within ax.observe.node-report-ms; a report
            // tick that began before the pause may still write "scanning" after it, so the test goes on once the
            // row has said "not scanning" for longer than two report periods (an alert raised meanwhile would
            // queue its delivery for scanning that the test has paused)
            node.bean(ReportNodeStatus.class).report();
            org.awaitility.Awaitility.await()
                    .during(Duration.ofMillis(700))
                    .atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() ->
                            node.jdbc().queryForObject("SELECT COALESCE(MAX(scanning), 0) FROM ax_nodes", Integer.class)
                                    == 0);
            body.run();
        } finally {
            scan.resumeScanning();
        }
    }

    @Test
    void a_rule_for_every_type_leaves_out_the_deliveries_of_alerts() {
        // a delivery that ran out of retries (a channel down for a quarter of an hour), as the failures table has it
        node.jdbc()
                .update("INSERT INTO job_failures (job_id, attempt, job_type, outcome, for_good, error, failed_at,"
                        + " namespace) VALUES ('delivery-x', 21, 'ax-alert', 'FAILED', 1, 'channel down',"
                        + " ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000), 'default')");
        rule("every-type", "JOB_FAILED", "{\"namespace\":\"default\"}", 1L, "[\"hook\"]");
        String job = node.api.submit("{\"jobType\":\"flaky\",\"params\":{\"failTimes\":9},\"maxRetries\":0}");
        node.api.awaitStatus(job, "FAILED");
        JsonNode fired = awaitHook("every-type", "FIRING");
        assertThat(fired.at("/details/jobType").asText()).isEqualTo("flaky");
        // evaluated together, the delivery's failure raised nothing
        assertThat(alerts("every-type")).extracting(a -> a.path("key").asText()).containsOnly("flaky");
        node.jdbc().update("DELETE FROM job_failures WHERE job_id = 'delivery-x'");
    }

    @Test
    void a_job_failed_for_good_raises_then_resolves_when_the_window_passes() throws Exception {
        rule("failed", "JOB_FAILED", "{\"jobType\":\"flaky\"}", 1L, "[\"hook\",\"mail\"]");
        String job = node.api.submit("{\"jobType\":\"flaky\",\"params\":{\"failTimes\":9},\"maxRetries\":0}");
        node.api.awaitStatus(job, "FAILED");
        JsonNode fired = awaitHook("failed", "FIRING");
        assertThat(fired.path("type").asText()).isEqualTo("JOB_FAILED");
        assertThat(fired.at("/details/jobs/0/jobId").asText()).isEqualTo(job);
        // the alerts page links to the failed job
        ConsoleSessionsIT.Browser admin = new ConsoleSessionsIT.Browser();
        admin.signIn(node, "admin", Node.ADMIN_PASSWORD);
        assertThat(admin.get(node, "/console/alerts?rule=failed").body())
                .contains("data-testid=\"alert-job\"", "href=\"/console/jobs/" + job + "\"");
        awaitHook("failed", "RESOLVED");
        Await.until(Duration.ofSeconds(20), () -> smtp.mails.size() >= 2, () -> smtp.mails.toString());
        assertThat(smtp.mails.get(0).to()).containsExactly("ops@example.com");
        assertThat(smtp.mails.get(0).data()).contains("FIRING", "[failed]");
        assertThat(smtp.mails.get(1).data()).contains("RESOLVED");

        JsonNode alerts = node.api.get("/api/v1/alerts?rule=failed").body().path("items");
        assertThat(alerts.size()).isEqualTo(1);
        assertThat(alerts.get(0).path("state").asText()).isEqualTo("RESOLVED");
        assertThat(alerts.get(0).path("resolvedAt").asText()).isNotEmpty();
        Integer events = node.jdbc()
                .queryForObject(
                        "SELECT COUNT(*) FROM DomainEventEntry WHERE aggregateIdentifier = ? AND (payloadType LIKE"
                                + " '%AlertRaised' OR payloadType LIKE '%AlertResolved')",
                        Integer.class, alerts.get(0).path("alertId").asText());
        assertThat(events)
                .as("AlertRaised and AlertResolved in the event store")
                .isEqualTo(2);
    }

    @Test
    void job_failed_counts_jobs_not_their_runs_again() {
        rule("failed-twice", "JOB_FAILED", "{\"namespace\":\"alerts-c\"}", 2L, "[\"hook\"]");
        String first = node.api.submit(
                "{\"jobType\":\"flaky\",\"params\":{\"failTimes\":9},\"maxRetries\":0,\"namespace\":\"alerts-c\"}");
        node.api.awaitStatus(first, "FAILED");
        // an operator runs it again, and it fails for good again: still one job (it raised the alert before)
        Api.Response again = node.api.post("/api/v1/jobs/" + first + "/retry", "{}");
        assertThat(again.status()).as(again.body().toString()).isEqualTo(200);
        Await.until(
                Duration.ofSeconds(30),
                () -> node.api
                                        .get("/api/v1/jobs/" + first)
                                        .body()
                                        .path("attempt")
                                        .asInt()
                                == 2
                        && node.api.get("/api/v1/jobs/" + first).text("status").equals("FAILED"),
                () -> node.api.get("/api/v1/jobs/" + first).body().toString());
        assertThat(node.api.get("/api/v1/jobs/" + first + "/explain").body().toString())
                .as("not 'attempt 2 of 1'")
                .contains("attempt 2 (run again by hand; its policy allows 1)");
        String second = node.api.submit(
                "{\"jobType\":\"flaky\",\"params\":{\"failTimes\":9},\"maxRetries\":0,\"namespace\":\"alerts-c\"}");
        node.api.awaitStatus(second, "FAILED");
        JsonNode fired = awaitHook("failed-twice", "FIRING");
        assertThat(fired.at("/details/count").asInt()).as(fired.toString()).isEqualTo(2);
        List<String> jobs = new ArrayList<>();
        fired.at("/details/jobs").forEach(j -> jobs.add(j.path("jobId").asText()));
        assertThat(jobs).containsExactlyInAnyOrder(first, second);
        assertThat(fired.path("message").asText()).contains("2 job(s)");
    }

    @Test
    void a_timed_out_run_raises_then_resolves() {
        // a channel named twice is one channel: told once, as the rule shows it
        rule("timeouts", "JOB_TIMED_OUT", "{\"jobType\":\"sleep\"}", 1L, "[\"hook\",\"hook\"]");
        assertThat(node.api
                        .get("/api/v1/alerts/rules/timeouts")
                        .body()
                        .path("channels")
                        .toString())
                .isEqualTo("[\"hook\"]");
        String job =
                node.api.submit("{\"jobType\":\"sleep\",\"params\":{\"ms\":3000},\"timeoutMs\":300,\"maxRetries\":0}");
        node.api.awaitStatus(job, "TIMED_OUT");
        JsonNode firing = awaitHook("timeouts", "FIRING");
        assertThat(firing.at("/details/jobs/0/jobId").asText()).isEqualTo(job);
        assertThat(firing.path("message").asText()).as("it counts runs").contains("1 run(s) of sleep timed out");
        awaitHook("timeouts", "RESOLVED");
        assertThat(receiver.of(HOOK, "timeouts", "FIRING")).hasSize(1);
    }

    @Test
    void a_schedule_behind_its_next_fire_raises_then_resolves_when_scanning_resumes() throws Exception {
        ScanSchedules schedules = node.bean(ScanSchedules.class);
        ConsoleSessionsIT.Browser admin = new ConsoleSessionsIT.Browser();
        admin.signIn(node, "admin", Node.ADMIN_PASSWORD);
        // a viewer of the default namespace: the rule below names no namespace, so its alerts are an admin's to see
        ConsoleSessionsIT.Browser viewer = ConsoleSessionsIT.Browser.signedInAs(node, "vera", "default", "VIEWER");
        schedules.pauseScanning();
        String id;
        try {
            id = ScheduleHttp.create(node.api, """
                    {"name":"behind","trigger":{"type":"fixedRate","intervalMs":1000},"job":{"jobType":"noop"}}""");
            rule("behind", "SCHEDULE_BEHIND", "{\"scheduleId\":\"" + id + "\"}", 1000L, "[\"hook\"]");
            assertThat(awaitHook("behind", "FIRING").at("/details/scheduleId").asText())
                    .isEqualTo(id);
            // the console's overview lists it while it fires
            String overview = admin.get(node, "/console").body();
            assertThat(overview).contains("data-testid=\"alerts-firing\"", ">behind<");
            // also in the fragment the page swaps in live
            assertThat(admin.get(node, "/console/fragments/overview").body()).contains("data-testid=\"alerts-firing\"");
            assertThat(viewer.get(node, "/console").body())
                    .contains("id=\"overview-body\"")
                    .doesNotContain("data-testid=\"alerts-firing\"");
            // the alerts page lists it, firing, with its rule; narrowed to resolved ones it does not
            String page = admin.get(node, "/console/alerts").body();
            assertThat(page).contains("data-testid=\"alert-schedule\"", "href=\"/console/schedules/" + id + "\"");
            assertThat(page).contains("data-testid=\"alert-row\"", ">behind<", ">firing<", "SCHEDULE_BEHIND");
            assertThat(admin.get(node, "/console/alerts?state=RESOLVED&rule=behind")
                            .body())
                    .doesNotContain("data-testid=\"alert-row\"");
            // a viewer sees neither the admin-only rule nor its alert
            assertThat(viewer.get(node, "/console/alerts").body())
                    .contains("data-testid=\"alert-list\"")
                    .doesNotContain(">behind<");
            var bad = admin.get(node, "/console/alerts?state=LOUD");
            assertThat(bad.statusCode()).isEqualTo(400);
            assertThat(bad.body()).contains("state");
        } finally {
            schedules.resumeScanning();
        }
        awaitHook("behind", "RESOLVED");
        assertThat(admin.get(node, "/console").body()).doesNotContain("data-testid=\"alerts-firing\"");
        assertThat(admin.get(node, "/console/alerts?state=RESOLVED&rule=behind").body())
                .contains("data-testid=\"alert-row\"", ">resolved<");
        deleteSchedules(List.of(id));
    }

    @Test
    void fire_times_a_misfire_policy_skipped_raise_the_misfire_alert_until_the_window_passes() throws Exception {
        ScanSchedules schedules = node.bean(ScanSchedules.class);
        String id = ScheduleHttp.create(node.api, """
                {"name":"missed","trigger":{"type":"fixedRate","intervalMs":1000},"misfirePolicy":"SKIP",
                 "job":{"jobType":"noop"}}""");
        rule("misfired", "SCHEDULE_MISFIRED", "{\"scheduleId\":\"" + id + "\"}", null, "[\"hook\"]");
        // nothing fires for a while (as when no node runs), then the schedule's misfire policy skips the missed times
        schedules.pauseScanning();
        try {
            sleep(4000);
        } finally {
            schedules.resumeScanning();
        }
        JsonNode fired = awaitHook("misfired", "FIRING");
        assertThat(fired.at("/details/scheduleId").asText()).isEqualTo(id);
        assertThat(fired.path("message").asText())
                .contains("schedule missed (" + id + ") skipped missed fire times once by its misfire policy")
                .contains("fire times missed since")
                .contains("misfire policy SKIP");
        assertThat(fired.at("/details/skips/0/fireTime").asText()).isNotEmpty();
        deleteSchedules(List.of(id));
        // the skip leaves the event window (3 s here): the alert resolves
        awaitHook("misfired", "RESOLVED");
    }

    @Test
    void no_node_scanning_raises_the_stalled_scanner_alert_then_resolves() {
        rule("stalled", "SCANNER_STALLED", "null", 1500L, "[\"hook\"]");
        pausedJobScan(() -> {
            node.bean(ReportNodeStatus.class).report();
            JsonNode fired = awaitHook("stalled", "FIRING");
            assertThat(fired.path("message").asText()).contains("no node is scanning");
        });
        awaitHook("stalled", "RESOLVED");
    }

    @Test
    void a_node_gone_silent_while_scanning_raises_the_stalled_alert_for_the_event_window_only() {
        // threshold 10 s: the row below is silent (past the 5 s a node may go without reporting) and its last scan
        // older than the threshold, so the key holds at once, until 10 + 3 s after the last report
        rule("stalled-node", "SCANNER_STALLED", "null", 10_000L, "[\"hook\"]");
        Long now = node.jdbc().queryForObject("SELECT ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000)", Long.class);
        // a node killed outright while scanning, never to return: its replacement runs under another id, and its row
        // stays until it is forgotten a day later
        node.jdbc()
                .update(
                        "INSERT INTO ax_nodes (node_id, scanning, last_scan_at, last_fire_pass_at, reported_at,"
                                + " started_at, pools) VALUES ('killed-node', 1, ?, ?, ?, ?, '{}')",
                        now - 11_000,
                        now - 11_000,
                        now - 5_500,
                        now - 60_000);
        try {
            // the rule's deliveries about this node (a test before may have left the real node's last scan old enough
            // for a no-node-scanning alert of the same rule)
            JsonNode fired = awaitHookAbout("stalled-node", "FIRING", "killed-node");
            assertThat(fired.path("message").asText()).contains("node killed-node was scanning and has been silent");
            // resolved once the event window (3 s here) has passed since it was raised, the row still there
            JsonNode resolved = awaitHookAbout("stalled-node", "RESOLVED", "killed-node");
            // the key, and what the raise said of it
            assertThat(resolved.path("message").asText())
                    .startsWith("[stalled-node] resolved: killed-node (raised as: node killed-node was scanning");
            assertThat(node.jdbc()
                            .queryForObject(
                                    "SELECT COUNT(*) FROM ax_nodes WHERE node_id = 'killed-node' AND scanning = 1",
                                    Integer.class))
                    .isEqualTo(1);
        } finally {
            node.jdbc().update("DELETE FROM ax_nodes WHERE node_id = 'killed-node'");
        }
    }

    @Test
    void waiting_jobs_over_the_depth_and_the_oldest_wait_raise_then_resolve() {
        rule("depth", "QUEUE_DEPTH", "{\"jobType\":\"noop\"}", 3L, "[\"hook\"]");
        rule("oldest", "OLDEST_WAITING", "{\"jobType\":\"noop\"}", 1000L, "[\"hook\"]");
        pausedJobScan(() -> {
            for (int i = 0; i < 3; i++) node.api.submit("{\"jobType\":\"noop\"}");
            assertThat(awaitHook("depth", "FIRING").at("/details/waiting").asLong())
                    .isGreaterThanOrEqualTo(3);
            assertThat(awaitHook("oldest", "FIRING").at("/details/jobType").asText())
                    .isEqualTo("noop");
        });
        awaitHook("depth", "RESOLVED");
        awaitHook("oldest", "RESOLVED");
    }

    @Test
    void a_rule_narrowed_to_a_namespace_counts_only_that_namespaces_jobs() {
        rule("depth-ns", "QUEUE_DEPTH", "{\"namespace\":\"alerts-a\",\"jobType\":\"noop\"}", 2L, "[\"hook\"]");
        rule("failed-ns", "JOB_FAILED", "{\"namespace\":\"alerts-a\"}", 1L, "[\"hook\"]");
        String failedInB = node.api.submit(
                "{\"jobType\":\"flaky\",\"params\":{\"failTimes\":9},\"maxRetries\":0,\"namespace\":\"alerts-b\"}");
        node.api.awaitStatus(failedInB, "FAILED");
        String failedInA = node.api.submit(
                "{\"jobType\":\"flaky\",\"params\":{\"failTimes\":9},\"maxRetries\":0,\"namespace\":\"alerts-a\"}");
        node.api.awaitStatus(failedInA, "FAILED");
        JsonNode failed = awaitHook("failed-ns", "FIRING");
        assertThat(failed.at("/details/count").asInt()).isEqualTo(1);
        assertThat(failed.at("/details/jobs/0/jobId").asText()).isEqualTo(failedInA);
        // a viewer of alerts-a sees the rule and its alert; a viewer of alerts-b sees neither (they name A's job)
        Api viewerOfA = viewer("alerts-a"), viewerOfB = viewer("alerts-b");
        assertThat(viewerOfA.get("/api/v1/alerts/rules").body().findValuesAsText("name"))
                .contains("failed-ns", "depth-ns");
        assertThat(viewerOfA.get("/api/v1/alerts?rule=failed-ns").body().toString())
                .contains(failedInA);
        assertThat(viewerOfB.get("/api/v1/alerts/rules").body().findValuesAsText("name"))
                .doesNotContain("failed-ns", "depth-ns");
        assertThat(viewerOfB.get("/api/v1/alerts/rules/failed-ns").status()).isEqualTo(404);
        assertThat(viewerOfB.get("/api/v1/alerts").body().toString()).doesNotContain(failedInA, "failed-ns");
        // the rule moved to alerts-b: the alert it raised for alerts-a still names A's job, so it stays A's to see
        Api.Response moved = ScheduleHttp.put(
                node.api,
                "/api/v1/alerts/rules/failed-ns",
                "{\"type\":\"JOB_FAILED\",\"filter\":{\"namespace\":\"alerts-b\"},\"threshold\":1,"
                        + "\"forMs\":0,\"channels\":[\"hook\"]}");
        assertThat(moved.status()).as(moved.body().toString()).isEqualTo(200);
        assertThat(viewerOfB.get("/api/v1/alerts/rules").body().findValuesAsText("name"))
                .contains("failed-ns");
        assertThat(viewerOfB.get("/api/v1/alerts").body().toString()).doesNotContain(failedInA);
        assertThat(viewerOfA.get("/api/v1/alerts?rule=failed-ns").body().toString())
                .contains(failedInA);
        pausedJobScan(() -> {
            for (int i = 0; i < 5; i++) node.api.submit("{\"jobType\":\"noop\",\"namespace\":\"alerts-b\"}");
            for (int i = 0; i < 2; i++) node.api.submit("{\"jobType\":\"noop\",\"namespace\":\"alerts-a\"}");
            assertThat(awaitHook("depth-ns", "FIRING").at("/details/waiting").asLong())
                    .as("the 5 of alerts-b do not count")
                    .isEqualTo(2);
        });
        Api.Response bad = node.api.post(
                "/api/v1/alerts/rules",
                "{\"name\":\"bad-ns\",\"type\":\"QUEUE_DEPTH\",\"filter\":{\"namespace\":\"Team A\"},"
                        + "\"channels\":[\"hook\"]}");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.body().toString()).contains("filter.namespace");
    }

    @Test
    void a_worker_that_stops_heartbeating_is_lost_until_it_heartbeats_again() {
        rule("lost", "WORKER_LOST", "{\"app\":\"quiet\"}", null, "[\"hook\"]");
        String worker = register("quiet", "quiet-type");
        assertThat(awaitHook("lost", "FIRING").at("/details/workerId").asText()).isEqualTo(worker);
        heartbeatUntil(worker, () -> !receiver.of(HOOK, "lost", "RESOLVED").isEmpty());
        awaitHook("lost", "RESOLVED");
        ScheduleHttp.delete(node.api, "/api/v1/workers/" + worker);
    }

    @Test
    void a_lost_worker_restarted_at_its_address_under_a_new_id_resolves_its_alert_before_the_window_ends() {
        rule("lost-restarted", "WORKER_LOST", "{\"app\":\"crashy\"}", null, "[\"hook\"]");
        String lost = register("crashy", "crashy-type");
        JsonNode fired = awaitHook("lost-restarted", "FIRING");
        assertThat(fired.at("/details/address").asText()).isEqualTo("http://127.0.0.1:9");
        // the service crashed and came back: the registry dropped the old id, the new one heartbeats
        ScheduleHttp.delete(node.api, "/api/v1/workers/" + lost);
        String back = register("crashy", "crashy-type");
        heartbeatUntil(
                back, () -> !receiver.of(HOOK, "lost-restarted", "RESOLVED").isEmpty());
        JsonNode resolved = awaitHook("lost-restarted", "RESOLVED");
        // resolved by the return, not by the event window (3 s) running out
        assertThat(Duration.between(
                        Instant.parse(fired.path("at").asText()),
                        Instant.parse(resolved.path("at").asText())))
                .isLessThan(Duration.ofMillis(2_500));
        ScheduleHttp.delete(node.api, "/api/v1/workers/" + back);
    }

    @Test
    void due_jobs_for_an_app_without_live_workers_raise_until_one_registers() {
        rule("no-worker", "NO_LIVE_WORKER", "{\"app\":\"absent\"}", null, "[\"hook\"]");
        String[] worker = new String[1];
        pausedJobScan(() -> {
            String first = register("absent", "absent-type");
            node.api.submit("{\"jobType\":\"absent-type\",\"executorApp\":\"absent\"}");
            ScheduleHttp.delete(node.api, "/api/v1/workers/" + first);
            assertThat(awaitHook("no-worker", "FIRING").at("/details/app").asText())
                    .isEqualTo("absent");
            worker[0] = register("absent", "absent-type");
            heartbeatUntil(
                    worker[0], () -> !receiver.of(HOOK, "no-worker", "RESOLVED").isEmpty());
        });
        awaitHook("no-worker", "RESOLVED");
        ScheduleHttp.delete(node.api, "/api/v1/workers/" + worker[0]);
    }

    @Test
    void due_jobs_of_a_type_whose_workers_all_left_raise_until_one_comes_back() {
        rule("orphaned", "NO_LIVE_WORKER", "{\"jobType\":\"orphaned-type\"}", null, "[\"hook\"]");
        String[] worker = new String[1];
        pausedJobScan(() -> {
            String first = register("orphans", "orphaned-type");
            // bound to no app: any worker of the type takes it, and there is none left
            String jobId = node.api.submit("{\"jobType\":\"orphaned-type\"}");
            ScheduleHttp.delete(node.api, "/api/v1/workers/" + first);
            JsonNode fired = awaitHook("orphaned", "FIRING");
            assertThat(fired.path("message").asText())
                    .as(fired.toString())
                    .contains("1 due job(s) of type orphaned-type wait for a worker")
                    .contains("no live worker in namespace default");
            assertThat(fired.at("/details/jobType").asText()).isEqualTo("orphaned-type");
            assertThat(fired.at("/details/namespaces/0").asText()).isEqualTo("default");
            assertThat(node.api.get("/api/v1/alerts").body().toString()).contains("type:orphaned-type");
            worker[0] = register("orphans", "orphaned-type");
            heartbeatUntil(
                    worker[0], () -> !receiver.of(HOOK, "orphaned", "RESOLVED").isEmpty());
            assertThat(node.api.post("/api/v1/jobs/" + jobId + "/cancel", "{}").status())
                    .isEqualTo(200);
        });
        awaitHook("orphaned", "RESOLVED");
        ScheduleHttp.delete(node.api, "/api/v1/workers/" + worker[0]);
    }

    @Test
    void due_jobs_for_an_app_whose_live_workers_lack_their_type_raise_until_one_runs_it() {
        rule("no-handler", "NO_LIVE_WORKER", "{\"app\":\"typeless\"}", null, "[\"hook\"]");
        String[] worker = {null};
        pausedJobScan(() -> {
            register("typeless", "missing-type");
            node.api.submit("{\"jobType\":\"missing-type\",\"executorApp\":\"typeless\"}");
            // the service redeployed without that handler, at its address: it replaces the worker before it
            String other = register("typeless", "other-type");
            heartbeatUntil(
                    other, () -> !receiver.of(HOOK, "no-handler", "FIRING").isEmpty());
            JsonNode fired = awaitHook("no-handler", "FIRING");
            assertThat(fired.path("message").asText())
                    .as(fired.toString())
                    .contains("app typeless, but none of its 1 live worker(s) runs missing-type");
            assertThat(fired.at("/details/liveWorkers").asLong()).isEqualTo(1);
            assertThat(fired.at("/details/jobTypes/0").asText()).isEqualTo("missing-type");
            // and with it again
            worker[0] = register("typeless", "missing-type");
            heartbeatUntil(
                    worker[0],
                    () -> !receiver.of(HOOK, "no-handler", "RESOLVED").isEmpty());
        });
        awaitHook("no-handler", "RESOLVED");
        ScheduleHttp.delete(node.api, "/api/v1/workers/" + worker[0]);
    }

    @Test
    void the_checks_for_jobs_without_workers_do_not_read_a_backlog_the_nodes_run() throws Exception {
        // a backlog of due jobs of a type the node runs, as the projection writes them, held while no scan claims it,
        // and two jobs no one can take: one bound to an app with no worker, one of a type whose only worker left
        ScanDueJobs scan = node.pauseJobScan();
        int backlog = 5_000;
        try (Connection c = node.bean(DataSource.class).getConnection()) {
            String worker = register("stranded-other", "stranded-type");
            String bound = node.api.submit("{\"jobType\":\"stranded-type\",\"executorApp\":\"stranded-app\"}");
            String unbound = node.api.submit("{\"jobType\":\"stranded-type\"}");
            ScheduleHttp.delete(node.api, "/api/v1/workers/" + worker);
            assertThat(waitingApp(bound)).as("written with the job").isEqualTo("stranded-app");
            assertThat(waitingApp(unbound)).isNull();
            for (int from = 0; from < backlog; from += 1_000) {
                StringBuilder rows = new StringBuilder();
                for (int i = from; i < from + 1_000; i++)
                    rows.append(rows.isEmpty() ? "" : ",")
                            .append("('backlog-")
                            .append(i)
                            .append("', 'noop', 'WAITING', 1, 0, 0, 1000, 0, 0, 0, 'default', 1000, 1000)");
                c.createStatement()
                        .executeUpdate("INSERT INTO job_queue (job_id, job_type, status, claimable, priority,"
                                + " neg_priority, run_at, attempt, max_retries, timeout_ms, namespace, created_at,"
                                + " updated_at) VALUES " + rows);
            }
            // on one connection, whose own counters say how many rows and index entries its statements read (less
            // what asking them reads, where the server counts that too)
            NamedParameterJdbcTemplate one = new NamedParameterJdbcTemplate(new SingleConnectionDataSource(c, true));
            long first = rowsRead(one);
            long asking = rowsRead(one) - first;
            long before = rowsRead(one);
            new AbandonWorkerlessJobs(
                            one, node.bean(SchedulerCommands.class), new RemoteProperties(Duration.ofMillis(1), 5000))
                    .abandonWorkerless();
            long abandonRead = rowsRead(one) - before - asking;
            before = rowsRead(one);
            Map<String, Long> oldest = OldestDue.byNamespace(one);
            long oldestRead = rowsRead(one) - before - asking;
            // the check found and gave up both, with the backlog left alone
            node.api.awaitStatus(bound, "CANCELED");
            node.api.awaitStatus(unbound, "CANCELED");
            assertThat(waitingApp(bound)).as("no longer waiting").isNull();
            assertThat(oldest).containsEntry("default", 1000L);
            assertThat(abandonRead)
                    .as("rows read looking for jobs no one takes")
                    .isLessThan(backlog / 10);
            assertThat(oldestRead).as("rows read for the oldest due job").isLessThan(backlog / 10);
        } finally {
            node.jdbc().update("DELETE FROM job_queue WHERE job_id LIKE 'backlog-%'");
            scan.resumeScanning();
        }
    }

    private static String waitingApp(String jobId) {
        return node.jdbc().queryForObject("SELECT waiting_app FROM job_queue WHERE job_id = ?", String.class, jobId);
    }

    /** What this connection's statements have read so far: index entries and rows, by the server's own count. */
    private static long rowsRead(NamedParameterJdbcTemplate one) {
        long read = 0;
        for (Map<String, Object> row : one.queryForList("SHOW SESSION STATUS LIKE 'Handler_read%'", Map.of()))
            read += Long.parseLong(String.valueOf(row.get("Value")));
        return read;
    }

    @Test
    void a_job_the_scheduler_gives_up_for_want_of_a_worker_is_a_job_failed_for_good() {
        rule("given-up", "JOB_FAILED", "{\"jobType\":\"gone-type\"}", 1L, "[\"hook\"]");
        String worker = register("gone", "gone-type");
        String jobId = node.api.submit("{\"jobType\":\"gone-type\",\"executorApp\":\"gone\",\"delayMs\":60000}");
        ScheduleHttp.delete(node.api, "/api/v1/workers/" + worker);
        // the node's own check with its bound at a millisecond, and the job made due: it is given up at once
        node.jdbc().update("UPDATE job_queue SET run_at = run_at - 120000 WHERE job_id = ?", jobId);
        new AbandonWorkerlessJobs(
                        node.bean(NamedParameterJdbcTemplate.class),
                        node.bean(SchedulerCommands.class),
                        new RemoteProperties(Duration.ofMillis(1), 5000))
                .abandonWorkerless();
        node.api.awaitStatus(jobId, "CANCELED");
        JsonNode fired = awaitHook("given-up", "FIRING");
        assertThat(fired.path("message").asText())
                .as(fired.toString())
                .contains("1 job(s) of gone-type failed for good")
                .contains("given up by the scheduler: no worker of executorApp 'gone'");
        assertThat(fired.at("/details/jobs/0/jobId").asText()).isEqualTo(jobId);
        // an operator's cancel is a decision, not a failure
        String canceled = node.api.submit("{\"jobType\":\"gone-type\",\"executorApp\":\"gone\",\"delayMs\":60000}");
        assertThat(node.api.post("/api/v1/jobs/" + canceled + "/cancel", "{}").status())
                .isEqualTo(200);
        assertThat(node.jdbc()
                        .queryForObject("SELECT COUNT(*) FROM job_failures WHERE job_id = ?", Integer.class, canceled))
                .isZero();
    }

    @Test
    void a_schedule_created_to_fire_too_often_is_a_runaway_until_deleted() {
        rule("runaway", "CRON_RUNAWAY", "null", 100L, "[\"hook\"]");
        String id = ScheduleHttp.create(node.api, """
                {"name":"every-minute","trigger":{"type":"cron","expression":"0 * * * * ?"},
                 "job":{"jobType":"noop"}}""");
        JsonNode fired = awaitHook("runaway", "FIRING");
        assertThat(fired.at("/details/scheduleId").asText()).isEqualTo(id);
        assertThat(fired.at("/details/firesPerDay").asLong()).isEqualTo(1440);
        ScheduleHttp.delete(node.api, "/api/v1/schedules/" + id);
        awaitHook("runaway", "RESOLVED");
    }

    @Test
    void slack_dingtalk_and_feishu_get_their_own_formats() {
        rule("formats", "QUEUE_DEPTH", "{\"jobType\":\"flaky\"}", 1L, "[\"slack\",\"ding\",\"feishu\"]");
        pausedJobScan(() -> {
            node.api.submit("{\"jobType\":\"flaky\",\"params\":{\"failTimes\":0}}");
            Await.until(
                    Duration.ofSeconds(30),
                    () -> !receiver.at("/slack").isEmpty()
                            && !receiver.at("/ding").isEmpty()
                            && !receiver.at("/feishu").isEmpty(),
                    () -> receiver.received.toString());
        });
        assertThat(receiver.at("/slack").get(0).json().path("text").asText()).contains("FIRING", "[formats]");
        WebhookReceiver.Received ding = receiver.at("/ding").get(0);
        assertThat(ding.json().path("msgtype").asText()).isEqualTo("text");
        assertThat(ding.json().at("/text/content").asText()).contains("[formats]");
        assertThat(ding.query()).contains("timestamp=", "sign=");
        JsonNode feishu = receiver.at("/feishu").get(0).json();
        assertThat(feishu.path("msg_type").asText()).isEqualTo("text");
        assertThat(feishu.at("/content/text").asText()).contains("[formats]");
        assertThat(feishu.path("sign").asText()).isNotEmpty();
    }

    @Test
    void a_schedule_changed_to_fire_too_often_is_a_runaway_though_created_before_the_window() {
        String id = ScheduleHttp.create(node.api, """
                {"name":"hourly","trigger":{"type":"cron","expression":"0 0 * * * ?"},"job":{"jobType":"noop"}}""");
        rule("runaway-update", "CRON_RUNAWAY", "{\"scheduleId\":\"" + id + "\"}", 100L, "[\"hook\"]");
        // 24 fires a day is no runaway; and once the event window (3 s) has passed, its creation is out of sight
        sleep(4000);
        assertThat(receiver.of(HOOK, "runaway-update", "FIRING")).isEmpty();
        Api.Response changed = ScheduleHttp.put(node.api, "/api/v1/schedules/" + id, """
                {"name":"hourly","trigger":{"type":"cron","expression":"0 * * * * ?"},"job":{"jobType":"noop"}}""");
        assertThat(changed.status()).as(changed.body().toString()).isEqualTo(200);
        JsonNode fired = awaitHook("runaway-update", "FIRING");
        assertThat(fired.at("/details/scheduleId").asText()).isEqualTo(id);
        assertThat(fired.at("/details/firesPerDay").asLong()).isEqualTo(1440);
        assertThat(fired.at("/details/definedAt").asText()).isNotEmpty();
        // slowed down again, it is no runaway any more
        ScheduleHttp.put(node.api, "/api/v1/schedules/" + id, """
                {"name":"hourly","trigger":{"type":"cron","expression":"0 0 * * * ?"},"job":{"jobType":"noop"}}""");
        awaitHook("runaway-update", "RESOLVED");
        ScheduleHttp.delete(node.api, "/api/v1/schedules/" + id);
    }

    @Test
    void a_condition_that_keeps_holding_is_one_alert_and_each_rule_and_channel_has_its_own_rate_limit() {
        ScanSchedules schedules = node.bean(ScanSchedules.class);
        schedules.pauseScanning();
        List<String> ids = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                ids.add(ScheduleHttp.create(node.api, """
                        {"name":"limited","trigger":{"type":"fixedRate","intervalMs":1000},
                         "job":{"jobType":"noop"}}"""));
            }
            // its own limit: 2 raises notified a window; the channel "capped" takes 1 raise a window, of any rule
            rule("limited", "SCHEDULE_BEHIND", "null", 1000L, "[\"hook\",\"capped\"]", ",\"maxPerWindow\":2");
            // the default limit per rule (20): this rule is not held back by the other's
            rule("unlimited", "SCHEDULE_BEHIND", "null", 1000L, "[\"hook\"]");
            for (String r : List.of("limited", "unlimited")) {
                Await.until(
                        Duration.ofSeconds(30),
                        () -> alerts(r).size() == 3,
                        () -> alerts(r).toString());
            }
            // many passes later, still one alert per rule and schedule
            sleep(2000);
            assertThat(alerts("limited")).hasSize(3);
            assertThat(alerts("unlimited")).hasSize(3);
            List<String> told = new ArrayList<>();
            int notified = 0;
            for (JsonNode item : alerts("limited")) {
                if (item.path("notified").asBoolean()) notified++;
                told.add(item.path("channels").toString());
            }
            assertThat(notified).isEqualTo(2);
            assertThat(told).containsExactlyInAnyOrder("[\"hook\",\"capped\"]", "[\"hook\"]", "[]");
            for (JsonNode item : alerts("unlimited"))
                assertThat(item.path("notified").asBoolean()).isTrue();
            Await.until(
                    Duration.ofSeconds(20),
                    () -> receiver.of(HOOK, "limited", "FIRING").size() >= 2
                            && receiver.of(HOOK, "unlimited", "FIRING").size() >= 3
                            && !receiver.of("/capped", "limited", "FIRING").isEmpty(),
                    () -> receiver.received.toString());
            sleep(1000);
            assertThat(receiver.of(HOOK, "limited", "FIRING")).hasSize(2);
            assertThat(receiver.of(HOOK, "unlimited", "FIRING")).hasSize(3);
            assertThat(receiver.of("/capped", "limited", "FIRING")).hasSize(1);
            ids.forEach(id -> ScheduleHttp.delete(node.api, "/api/v1/schedules/" + id));
        } finally {
            schedules.resumeScanning();
        }
        // a resolve goes to the channels told of its raise, whatever the limits
        Await.until(
                Duration.ofSeconds(30),
                () -> receiver.of(HOOK, "limited", "RESOLVED").size() == 2
                        && receiver.of(HOOK, "unlimited", "RESOLVED").size() == 3
                        && receiver.of("/capped", "limited", "RESOLVED").size() == 1,
                () -> receiver.received.toString());
        assertThat(node.api
                        .post(
                                "/api/v1/alerts/rules",
                                "{\"name\":\"bad-limit\",\"type\":\"QUEUE_DEPTH\",\"maxPerWindow\":0}")
                        .body()
                        .toString())
                .contains("maxPerWindow");
    }

    private static List<JsonNode> alerts(String rule) {
        List<JsonNode> items = new ArrayList<>();
        node.api.get("/api/v1/alerts?rule=" + rule).body().path("items").forEach(items::add);
        return items;
    }

    @Test
    void a_failing_webhook_is_retried_with_backoff_as_a_job_until_it_answers() {
        receiver.failNext("/flaky", 2);
        String id = ScheduleHttp.create(node.api, """
                {"name":"retried","trigger":{"type":"cron","expression":"0 0 * * * ?"},"job":{"jobType":"noop"}}""");
        rule("retried", "CRON_RUNAWAY", "null", 10L, "[\"flaky-hook\"]");
        // the alert itself shows its channel not reached yet, and why
        Await.until(
                Duration.ofSeconds(30),
                () -> alerts("retried").stream()
                        .anyMatch(a -> a.at("/deliveries/0/status").asText().equals("RETRY_WAITING")),
                () -> alerts("retried").toString());
        JsonNode waiting = alerts("retried").get(0).at("/deliveries/0");
        assertThat(waiting.path("channel").asText()).isEqualTo("flaky-hook");
        assertThat(waiting.path("state").asText()).isEqualTo("FIRING");
        assertThat(waiting.path("lastError").asText()).as(waiting.toString()).isNotEmpty();
        Await.until(
                Duration.ofSeconds(30),
                () -> receiver.at("/flaky").size() >= 3,
                () -> receiver.at("/flaky").toString());
        ScheduleHttp.delete(node.api, "/api/v1/schedules/" + id);
        JsonNode deliveries =
                node.api.get("/api/v1/jobs?jobType=ax-alert&size=100").body().path("items");
        JsonNode delivery = null;
        for (JsonNode d : deliveries) {
            if (d.path("jobKey").asText().endsWith(":FIRING:flaky-hook")) delivery = d;
        }
        assertThat(delivery).as(deliveries.toString()).isNotNull();
        JsonNode done = node.api.awaitStatus(delivery.path("jobId").asText(), "SUCCEEDED");
        assertThat(done.path("attempt").asInt()).isEqualTo(3);
        JsonNode delivered = alerts("retried").get(0).at("/deliveries/0");
        assertThat(delivered.path("status").asText()).as(delivered.toString()).isEqualTo("SUCCEEDED");
        assertThat(delivered.path("jobId").asText())
                .isEqualTo(delivery.path("jobId").asText());

        // a delivery carries what the alert says: the scheduler's own namespace holds it, which ADMIN alone sees
        assertThat(delivery.path("namespace").asText()).isEqualTo("ax-system");
        Api.Response key = node.api.post("/api/v1/admin/api-keys", """
                {"name":"default-operator","grants":[{"namespace":"default","role":"OPERATOR"}]}""");
        assertThat(key.status()).as(key.body().toString()).isEqualTo(201);
        Api operator = node.api.as(key.text("key"));
        Api.Response listed = operator.get("/api/v1/jobs?jobType=ax-alert");
        assertThat(listed.status()).isEqualTo(200);
        assertThat(listed.body().path("items")).isEmpty();
        assertThat(node.api.get("/api/v1/jobs?jobType=ax-alert").body().path("items"))
                .as("an admin's list has them")
                .isNotEmpty();
        String deliveryId = delivery.path("jobId").asText();
        assertThat(operator.get("/api/v1/jobs/" + deliveryId).status()).isEqualTo(404);
        assertThat(operator.get("/api/v1/jobs/" + deliveryId + "/history").status())
                .isEqualTo(404);
        assertThat(operator.post("/api/v1/jobs/" + deliveryId + "/cancel", "{}").status())
                .isEqualTo(404);
        // nor may any request put work or grants there
        var granted = node.api.post("/api/v1/admin/api-keys", """
                {"name":"system-viewer","grants":[{"namespace":"ax-system","role":"VIEWER"}]}""");
        assertThat(granted.status()).isEqualTo(400);
        assertThat(granted.body().path("errors").get(0).path("field").asText()).isEqualTo("grants[0].namespace");
        var submitted = node.api.post("/api/v1/jobs", "{\"jobType\":\"noop\",\"namespace\":\"ax-system\"}");
        assertThat(submitted.status()).isEqualTo(400);
        assertThat(submitted.body().path("errors").get(0).path("field").asText())
                .isEqualTo("namespace");
    }

    @Test
    void after_a_channels_outage_the_resolve_reaches_it_after_the_raise() {
        // the raise is refused four times (retried after 1, 2, 4, 8 s); the alert resolves meanwhile
        receiver.failNext("/ordered", 4);
        String id = ScheduleHttp.create(node.api, """
                {"name":"ordered","trigger":{"type":"cron","expression":"0 0 * * * ?"},"job":{"jobType":"noop"}}""");
        rule("ordered", "CRON_RUNAWAY", "{\"scheduleId\":\"" + id + "\"}", 10L, "[\"ordered\"]");
        Await.until(Duration.ofSeconds(30), () -> !receiver.at("/ordered").isEmpty(), () -> "no raise tried");
        ScheduleHttp.delete(node.api, "/api/v1/schedules/" + id);
        Await.until(
                Duration.ofSeconds(60),
                () -> !receiver.of("/ordered", "ordered", "RESOLVED").isEmpty(),
                () -> receiver.at("/ordered").stream()
                        .map(WebhookReceiver.Received::body)
                        .toList()
                        .toString());
        List<String> states = receiver.at("/ordered").stream()
                .map(r -> r.body().contains("\"state\":\"FIRING\"") ? "FIRING" : "RESOLVED")
                .toList();
        // every try of the raise (the last one taken) before the first try of the resolve
        assertThat(states.subList(0, states.indexOf("RESOLVED"))).hasSize(5).containsOnly("FIRING");
        assertThat(states.subList(states.indexOf("RESOLVED"), states.size())).containsOnly("RESOLVED");
    }

    @Test
    void rules_are_created_read_changed_and_removed_through_the_api_with_problems_for_bad_input() {
        rule("crud", "QUEUE_DEPTH", "{\"jobType\":\"noop\"}", 5000L, "[\"hook\"]");
        assertThat(node.api
                        .get("/api/v1/alerts/rules/crud")
                        .body()
                        .path("threshold")
                        .asLong())
                .isEqualTo(5000);
        Api.Response changed = ScheduleHttp.put(
                node.api,
                "/api/v1/alerts/rules/crud",
                "{\"type\":\"QUEUE_DEPTH\",\"threshold\":7000,\"channels\":[\"hook\"]}");
        assertThat(changed.status()).isEqualTo(200);
        assertThat(changed.body().path("threshold").asLong()).isEqualTo(7000);
        // the path names the rule; a body naming another would read as a rename that does not happen
        Api.Response renamed = ScheduleHttp.put(
                node.api,
                "/api/v1/alerts/rules/crud",
                "{\"name\":\"other\",\"type\":\"QUEUE_DEPTH\",\"threshold\":9000,\"channels\":[\"hook\"]}");
        assertThat(renamed.status()).isEqualTo(400);
        assertThat(renamed.body().at("/errors/0/field").asText()).isEqualTo("name");
        assertThat(node.api
                        .get("/api/v1/alerts/rules/crud")
                        .body()
                        .path("threshold")
                        .asLong())
                .as("nothing written")
                .isEqualTo(7000);
        assertThat(ScheduleHttp.put(
                                node.api,
                                "/api/v1/alerts/rules/crud",
                                "{\"name\":\"crud\",\"type\":\"QUEUE_DEPTH\",\"threshold\":7000,\"channels\":[\"hook\"]}")
                        .status())
                .as("the rule's own name may come back, as its view has it")
                .isEqualTo(200);
        assertThat(node.api
                        .post("/api/v1/alerts/rules", "{\"name\":\"crud\",\"type\":\"QUEUE_DEPTH\"}")
                        .status())
                .isEqualTo(409);
        Api.Response bad = node.api.post(
                "/api/v1/alerts/rules", "{\"name\":\"bad\",\"type\":\"QUEUE_DEPTH\",\"channels\":[\"nowhere\"]}");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.contentType()).contains("problem+json");
        assertThat(bad.body().toString()).contains("channels[0]");
        assertThat(node.api.get("/api/v1/alerts/rules/bad").status()).isEqualTo(404);
        // a filter the type does not read would narrow nothing; a type that is none is named as such
        for (String[] refused : new String[][] {
            {"{\"name\":\"f1\",\"type\":\"SCANNER_STALLED\",\"filter\":{\"namespace\":\"default\"}}", "filter.namespace"
            },
            {"{\"name\":\"f2\",\"type\":\"QUEUE_DEPTH\",\"filter\":{\"app\":\"x\"}}", "filter.app"},
            {"{\"name\":\"f3\",\"type\":\"WORKER_LOST\",\"filter\":{\"jobType\":\"noop\"}}", "filter.jobType"},
            {"{\"name\":\"f4\",\"type\":\"WHATEVER\"}", "type"},
            // no job type is written so: the rule would watch nothing
            {"{\"name\":\"f5\",\"type\":\"JOB_FAILED\",\"filter\":{\"jobType\":\"<img src=x>\"}}", "filter.jobType"}
        }) {
            Api.Response r = node.api.post("/api/v1/alerts/rules", refused[0]);
            assertThat(r.status()).as(refused[0]).isEqualTo(400);
            assertThat(r.body().at("/errors/0/field").asText()).as(refused[0]).isEqualTo(refused[1]);
        }
        assertThat(node.api
                        .post("/api/v1/alerts/rules", "{\"name\":\"f4\",\"type\":\"WHATEVER\"}")
                        .body()
                        .at("/errors/0/message")
                        .asText())
                .startsWith("must be one of [")
                .contains("QUEUE_DEPTH");
        // every field in the wrong shape or out of bounds is named at once, as for jobs and schedules
        for (String[] refused : new String[][] {
            {"{\"name\":\"bad name!\",\"type\":\"NOPE\",\"forMs\":-1}", "[name, type, forMs]"},
            {
                "{\"name\":\"zz\",\"type\":\"JOB_FAILED\",\"threshold\":\"1\",\"forMs\":\"x\",\"extra\":1,"
                        + "\"channels\":[\"hook\",2],\"filter\":{\"jobType\":3,\"nope\":\"x\"}}",
                "[extra, threshold, forMs, channels[1], filter.nope, filter.jobType]"
            },
            // a channel is named by its place in the body, even beside a repeat or a non-string
            {"{\"name\":\"c1\",\"type\":\"JOB_FAILED\",\"channels\":[\"hook\",\"hook\",\"nope\"]}", "[channels[2]]"},
            {
                "{\"name\":\"c2\",\"type\":\"JOB_FAILED\",\"channels\":[\"hook\",2,\"nope\"]}",
                "[channels[1], channels[2]]"
            },
            {"[1]", "[body]"}
        }) {
            Api.Response r = node.api.post("/api/v1/alerts/rules", refused[0]);
            assertThat(r.status()).as(refused[0]).isEqualTo(400);
            List<String> fields = new java.util.ArrayList<>();
            r.body().path("errors").forEach(e -> fields.add(e.path("field").asText()));
            assertThat(fields)
                    .as(r.body().toString())
                    .containsExactlyInAnyOrderElementsOf(List.of(
                            refused[1].substring(1, refused[1].length() - 1).split(", ")));
        }
        assertThat(node.api.get("/api/v1/alerts/rules/zz").status()).isEqualTo(404);
        assertThat(node.api.get("/api/v1/alerts/rules").body().path("items").size())
                .isGreaterThanOrEqualTo(1);
        assertThat(ScheduleHttp.delete(node.api, "/api/v1/alerts/rules/crud").status())
                .isEqualTo(204);
        rules.clear();
        assertThat(node.api.get("/api/v1/alerts/rules/crud").status()).isEqualTo(404);
    }

    /**
     * Deletes schedules with the schedule scan paused: a delete that crosses a fire batch holding the schedule's row
     * waits for that batch's lock while holding the aggregate the batch needs next, until the lock wait times out.
     */
    private static void deleteSchedules(List<String> ids) {
        ScanSchedules schedules = node.bean(ScanSchedules.class);
        schedules.pauseScanning();
        try {
            sleep(1000);
            ids.forEach(id -> ScheduleHttp.delete(node.api, "/api/v1/schedules/" + id));
        } finally {
            schedules.resumeScanning();
        }
    }

    private static String register(String app, String type) {
        Api.Response r = node.api.post(
                "/api/v1/workers/register",
                "{\"app\":\"" + app + "\",\"address\":\"http://127.0.0.1:9\",\"jobTypes\":[\"" + type
                        + "\"],\"capacity\":1}");
        assertThat(r.status()).isEqualTo(201);
        return r.text("workerId");
    }

    private static void heartbeatUntil(String worker, Supplier<Boolean> done) {
        long until = System.currentTimeMillis() + 30_000;
        while (!done.get() && System.currentTimeMillis() < until) {
            node.api.post("/api/v1/workers/" + worker + "/heartbeat", "{\"inFlight\":0}");
            sleep(200);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
