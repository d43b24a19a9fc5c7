package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.axscheduler.api.worker.CallbackSignature;
import io.axscheduler.scheduler.claim.ScanDueJobs;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Namespaces keep teams apart where they share one scheduler: a job runs only on workers registered in its namespace
 * (and waits, explained, while there is none), a worker's callback for another namespace's job is refused, and a job
 * key names one job per namespace — existing keys migrated into their job's namespace; the change stream tells a
 * subscriber only of the namespaces it may see.
 */
class NamespaceIsolationIT {

    static final String A = "team-a";
    static final String B = "team-b";

    static Node node;
    static final Queue<WorkerNode.Run> runs = new ConcurrentLinkedQueue<>();
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void start() {
        node = Node.start(
                TestDatabase.freshDatabase("namespaces"),
                "node-ns",
                Map.of(
                        "ax.scheduler.workers.heartbeat-interval-ms", "1000",
                        "ax.scheduler.workers.expiry-check-ms", "500"));
    }

    @AfterAll
    static void stop() {
        node.close();
    }

    static String workerKey(String name, String namespace) {
        Api.Response r = node.api.post(
                "/api/v1/admin/api-keys",
                "{\"name\":\"" + name + "\",\"grants\":[{\"namespace\":\"" + namespace + "\",\"role\":\"WORKER\"}]}");
        assertThat(r.status()).as(r.body().toString()).isEqualTo(201);
        return r.text("key");
    }

    static WorkerNode worker(String name, String namespace) {
        return WorkerNode.start(
                name,
                node.api.port,
                "shared",
                runs,
                Map.of("ax.worker.namespace", namespace, "ax.worker.api-key", workerKey(name, namespace)));
    }

    static List<String> codes(JsonNode explanation) {
        List<String> codes = new ArrayList<>();
        explanation.path("reasons").forEach(r -> codes.add(r.path("code").asText()));
        return codes;
    }

    @Test
    void a_job_runs_only_on_a_worker_of_its_namespace_and_waits_explained_while_there_is_none() {
        try (WorkerNode inA = worker("worker-a", A)) {
            // a type only A's workers run is no type a job of B may name, and the refusal lists none of A's
            Api.Response refused = node.api.post(
                    "/api/v1/jobs", "{\"jobType\":\"echo\",\"executorApp\":\"shared\",\"namespace\":\"" + B + "\"}");
            assertThat(refused.status()).as(refused.body().toString()).isEqualTo(400);
            assertThat(refused.body().toString()).contains("unknown job type 'echo' in namespace '" + B + "'");
            assertThat(refused.body().at("/errors/0/message").asText()).doesNotContain("echo]", "echo,");

            // nor does a caller of A learn B's types by naming B: the namespace is checked before the body's errors
            Api.Response key = node.api.post(
                    "/api/v1/admin/api-keys",
                    "{\"name\":\"editor-a\",\"grants\":[{\"namespace\":\"" + A + "\",\"role\":\"EDITOR\"}]}");
            assertThat(key.status()).as(key.body().toString()).isEqualTo(201);
            String jobOfBNamed = "{\"jobType\":\"nope\",\"namespace\":\"" + B + "\"}";
            String scheduleOfBNamed = "{\"name\":\"s\",\"trigger\":{\"type\":\"fixedRate\",\"intervalMs\":60000},"
                    + "\"job\":{\"jobType\":\"nope\"},\"namespace\":\"" + B + "\"}";
            Api editorOfA = node.api.as(key.text("key"));
            for (Api.Response forbidden : List.of(
                    editorOfA.post("/api/v1/jobs", jobOfBNamed),
                    editorOfA.post("/api/v1/jobs/batch", "{\"jobs\":[" + jobOfBNamed + "]}"),
                    editorOfA.post("/api/v1/schedules", scheduleOfBNamed),
                    editorOfA.post("/api/v1/schedules/batch", "{\"schedules\":[" + scheduleOfBNamed + "]}"))) {
                assertThat(forbidden.status()).as(forbidden.body().toString()).isEqualTo(403);
                assertThat(forbidden.body().toString()).doesNotContain("known types");
            }
            // a schedule of B it cannot see does not exist for it, whatever its new definition names
            String scheduleOfB = ScheduleHttp.create(node.api, """
                    {"name":"of-b","trigger":{"type":"fixedRate","intervalMs":60000},"job":{"jobType":"noop"},
                     "namespace":"%s"}""".formatted(B));
            Api.Response unseen = ScheduleHttp.put(
                    editorOfA,
                    "/api/v1/schedules/" + scheduleOfB,
                    "{\"name\":\"s\",\"trigger\":{\"type\":\"fixedRate\",\"intervalMs\":60000},"
                            + "\"job\":{\"jobType\":\"nope\"}}");
            assertThat(unseen.status()).as(unseen.body().toString()).isEqualTo(404);
            assertThat(unseen.body().toString()).doesNotContain("known types");

            // B's worker of the app registered when the job was submitted, and went away before it was claimed
            ScanDueJobs scan = node.pauseJobScan();
            Api.Response standIn = node.api.post(
                    "/api/v1/workers/register",
                    "{\"app\":\"shared\",\"address\":\"http://127.0.0.1:9\",\"jobTypes\":[\"echo\"],\"capacity\":1,"
                            + "\"namespace\":\"" + B + "\"}");
            assertThat(standIn.status()).as(standIn.body().toString()).isEqualTo(201);
            String jobOfB = node.api.submit("{\"jobType\":\"echo\",\"executorApp\":\"shared\",\"namespace\":\"" + B
                    + "\",\"params\":{\"team\":\"b\"}}");
            node.jdbc().update("DELETE FROM workers WHERE worker_id = ?", standIn.text("workerId"));
            scan.resumeScanning();
            String jobOfA = node.api.submit("{\"jobType\":\"echo\",\"executorApp\":\"shared\",\"namespace\":\"" + A
                    + "\",\"params\":{\"team\":\"a\"}}");
            // the later job of A ran: a scan has passed over the earlier job of B too
            assertThat(node.api.awaitStatus(jobOfA, "SUCCEEDED").path("worker").asText())
                    .isEqualTo(inA.workerId());

            JsonNode waiting = node.api.get("/api/v1/jobs/" + jobOfB).body();
            assertThat(waiting.path("status").asText()).as(waiting.toString()).isEqualTo("WAITING");
            assertThat(waiting.path("attempt").asInt()).isZero();
            assertThat(runs).noneMatch(r -> r.jobId().equals(jobOfB));
            JsonNode explained =
                    node.api.get("/api/v1/jobs/" + jobOfB + "/explain").body();
            assertThat(codes(explained)).as(explained.toString()).contains("NO_LIVE_WORKER");
            JsonNode reason = null;
            for (JsonNode r : explained.path("reasons"))
                if (r.path("code").asText().equals("NO_LIVE_WORKER")) reason = r;
            assertThat(reason.at("/details/app").asText()).isEqualTo("shared");
            assertThat(reason.at("/details/namespace").asText()).isEqualTo(B);

            try (WorkerNode inB = worker("worker-b", B)) {
                assertThat(node.api
                                .awaitStatus(jobOfB, "SUCCEEDED")
                                .path("worker")
                                .asText())
                        .isEqualTo(inB.workerId());
                assertThat(runs.stream().filter(r -> r.jobId().equals(jobOfB)))
                        .extracting(WorkerNode.Run::worker)
                        .containsExactly("worker-b");
            }
        }
    }

    @Test
    void a_worker_another_node_registered_a_moment_ago_is_known_here_at_once() throws Exception {
        String job = "{\"jobType\":\"just-registered\",\"executorApp\":\"elsewhere\",\"delayMs\":3600000,"
                + "\"namespace\":\"" + A + "\"}";
        Api.Response unknown = node.api.post("/api/v1/jobs", job);
        assertThat(unknown.status()).as(unknown.body().toString()).isEqualTo(400);
        // the row another node's registration writes; this node's registry did not see it happen
        node.jdbc()
                .update(
                        "INSERT INTO workers (worker_id, app, address, job_types, capacity, secret, registered_at,"
                                + " last_heartbeat, namespace, registered_by)"
                                + " VALUES ('elsewhere-1', 'elsewhere', 'http://127.0.0.1:9', 'just-registered', 1, 's',"
                                + " ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000), ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000), ?, 'other')",
                        A);
        try {
            // within the second its snapshot of the types lasts: a type it does not hold is looked up again
            Thread.sleep(150);
            Api.Response known = node.api.post("/api/v1/jobs", job);
            assertThat(known.status()).as(known.body().toString()).isEqualTo(201);
            Api.Response canceled = node.api.post("/api/v1/jobs/" + known.text("jobId") + "/cancel", "{}");
            assertThat(canceled.status()).as(canceled.body().toString()).isLessThan(300);
        } finally {
            node.jdbc().update("DELETE FROM workers WHERE worker_id = 'elsewhere-1'");
        }
    }

    @Test
    void a_workers_callback_for_a_job_of_another_namespace_is_refused_and_changes_nothing() throws Exception {
        HttpServer fake = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        fake.createContext("/ax-worker/jobs", exchange -> {
            exchange.getRequestBody().readAllBytes();
            byte[] answer = "{\"state\":\"ACCEPTED\",\"outcome\":null}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(202, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        fake.start();
        try {
            String register = "{\"app\":\"fake-ns\",\"address\":\"http://127.0.0.1:"
                    + fake.getAddress().getPort()
                    + "\",\"jobTypes\":[\"fake-ns-type\"],\"capacity\":2,\"namespace\":\"%s\"}";
            Api.Response ofA = node.api.post("/api/v1/workers/register", register.formatted(A));
            Api.Response ofB = node.api.post("/api/v1/workers/register", register.formatted(B));
            assertThat(ofA.status()).isEqualTo(201);
            assertThat(ofB.status()).isEqualTo(201);
            // the worker list narrows to a namespace as every list does
            assertThat(node.api
                            .get("/api/v1/workers?namespace=" + B)
                            .body()
                            .path("items")
                            .toString())
                    .contains(ofB.text("workerId"))
                    .doesNotContain(ofA.text("workerId"));
            assertThat(node.api.get("/api/v1/workers").body().path("items").toString())
                    .contains(ofA.text("workerId"), ofB.text("workerId"));
            assertThat(node.api.get("/api/v1/workers?namespace=Not_Valid").status())
                    .isEqualTo(400);

            String jobId = node.api.submit(
                    "{\"jobType\":\"fake-ns-type\",\"executorApp\":\"fake-ns\",\"namespace\":\"" + B + "\"}");
            assertThat(node.api.awaitStatus(jobId, "RUNNING").path("worker").asText())
                    .isEqualTo(ofB.text("workerId"));
            // a dispatch row naming the worker of A, as a push made before namespaces were kept apart left it
            node.jdbc()
                    .update("UPDATE worker_dispatches SET worker_id = ? WHERE job_id = ?", ofA.text("workerId"), jobId);

            String body = "{\"workerId\":\"" + ofA.text("workerId") + "\",\"jobId\":\"" + jobId
                    + "\",\"attempt\":1,\"shardIndex\":0,\"succeeded\":true,\"result\":\"done\",\"error\":null,"
                    + "\"durationMs\":5}";
            long now = System.currentTimeMillis();
            HttpResponse<String> refused = callback(body, now, CallbackSignature.sign(ofA.text("secret"), now, body));
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
            assertThat(refused.headers().firstValue("Content-Type").orElse("")).contains("application/problem+json");
            assertThat(node.api.get("/api/v1/jobs/" + jobId).text("status")).isEqualTo("RUNNING");
            assertThat(node.api
                            .get("/api/v1/jobs/" + jobId + "/history")
                            .body()
                            .path("events")
                            .size())
                    .isEqualTo(3);
        } finally {
            fake.stop(0);
        }
    }

    @Test
    void a_request_naming_no_namespace_is_in_the_callers_one_namespace() {
        Api team = node.api.as(node.api.newKey("team-a-editor", A, "EDITOR"));
        Api.Response job = team.post("/api/v1/jobs", "{\"jobType\":\"noop\"}");
        assertThat(job.status()).as(job.body().toString()).isEqualTo(201);
        assertThat(node.api.get("/api/v1/jobs/" + job.text("jobId")).text("namespace"))
                .isEqualTo(A);
        Api.Response batch = team.post("/api/v1/jobs/batch", "{\"jobs\":[{\"jobType\":\"noop\"}]}");
        assertThat(batch.status()).as(batch.body().toString()).isEqualTo(200);
        assertThat(node.api
                        .get("/api/v1/jobs/"
                                + batch.body().at("/results/0/jobId").asText())
                        .text("namespace"))
                .isEqualTo(A);
        Api.Response schedule = team.post(
                "/api/v1/schedules",
                "{\"name\":\"home\",\"trigger\":{\"type\":\"fixedRate\",\"intervalMs\":3600000},"
                        + "\"job\":{\"jobType\":\"noop\"}}");
        assertThat(schedule.status()).as(schedule.body().toString()).isEqualTo(201);
        JsonNode view =
                node.api.get("/api/v1/schedules/" + schedule.text("scheduleId")).body();
        assertThat(view.path("namespace").asText()).isEqualTo(A);
        assertThat(view.at("/job/namespace").asText()).isEqualTo(A);
        // a body sent back without its namespace edits the schedule where it is
        Api.Response edited = team.put(
                "/api/v1/schedules/" + schedule.text("scheduleId"),
                "{\"name\":\"home2\",\"trigger\":{\"type\":\"fixedRate\",\"intervalMs\":3600000},"
                        + "\"job\":{\"jobType\":\"noop\"}}");
        assertThat(edited.status()).as(edited.body().toString()).isEqualTo(200);

        // a caller of two namespaces, like an admin, is in `default` unless it names one
        Api.Response both = node.api.post(
                "/api/v1/admin/api-keys",
                "{\"name\":\"two-teams\",\"grants\":[{\"namespace\":\"" + A
                        + "\",\"role\":\"OPERATOR\"},{\"namespace\":\"" + B + "\",\"role\":\"OPERATOR\"}]}");
        assertThat(both.status()).as(both.body().toString()).isEqualTo(201);
        Api twoTeams = node.api.as(both.text("key"));
        assertThat(twoTeams.post("/api/v1/jobs", "{\"jobType\":\"noop\"}").status())
                .isEqualTo(403);
        Api.Response named = twoTeams.post("/api/v1/jobs", "{\"jobType\":\"noop\",\"namespace\":\"" + B + "\"}");
        assertThat(named.status()).isEqualTo(201);
        Api.Response admins = node.api.post("/api/v1/jobs", "{\"jobType\":\"noop\"}");
        assertThat(node.api.get("/api/v1/jobs/" + admins.text("jobId")).text("namespace"))
                .isEqualTo("default");
    }

    @Test
    void a_job_key_names_one_job_per_namespace() {
        String body = "{\"jobType\":\"noop\",\"jobKey\":\"nightly-report\",\"delayMs\":3600000,\"namespace\":\"%s\"}";
        Api.Response firstA = node.api.post("/api/v1/jobs", body.formatted(A));
        Api.Response firstB = node.api.post("/api/v1/jobs", body.formatted(B));
        Api.Response againA = node.api.post("/api/v1/jobs", body.formatted(A));
        Api.Response againB = node.api.post("/api/v1/jobs", body.formatted(B));

        assertThat(firstA.status()).isEqualTo(201);
        assertThat(firstB.status()).as(firstB.body().toString()).isEqualTo(201);
        assertThat(firstB.text("jobId")).isNotEqualTo(firstA.text("jobId"));
        assertThat(againA.status()).isEqualTo(200);
        assertThat(againA.text("jobId")).isEqualTo(firstA.text("jobId"));
        assertThat(againA.body().path("created").asBoolean()).isFalse();
        assertThat(againB.status()).isEqualTo(200);
        assertThat(againB.text("jobId")).isEqualTo(firstB.text("jobId"));
        assertThat(node.api.get("/api/v1/jobs/" + firstB.text("jobId")).text("namespace"))
                .isEqualTo(B);
        assertThat(node.jdbc()
                        .queryForList(
                                "SELECT namespace FROM job_keys WHERE job_key = 'nightly-report' ORDER BY namespace",
                                String.class))
                .containsExactly(A, B);
    }

    @Test
    void existing_job_keys_are_migrated_into_their_jobs_namespace() throws SQLException {
        String db = TestDatabase.freshDatabase("keys_migration");
        migrate(db, "19");
        try (Connection c = TestDatabase.connect(db)) {
            var s = c.createStatement();
            s.execute("INSERT INTO job_queue (job_id, job_key, job_type, status, claimable, priority, neg_priority,"
                    + " run_at, attempt, max_retries, timeout_ms, created_at, updated_at, namespace) VALUES"
                    + " ('job-a', 'k-a', 'noop', 'WAITING', 1, 0, 0, 1, 0, 0, 1000, 1, 1, 'team-a'),"
                    + " ('job-d', 'k-d', 'noop', 'SUCCEEDED', 0, 0, 0, 1, 1, 0, 1000, 1, 1, 'default')");
            s.execute("INSERT INTO job_keys (job_key, job_id) VALUES ('k-a', 'job-a'), ('k-d', 'job-d'),"
                    + " ('k-gone', 'job-without-row')");
        }
        migrate(db, null);
        try (Connection c = TestDatabase.connect(db)) {
            var s = c.createStatement();
            var rs = s.executeQuery("SELECT job_key, namespace, job_id FROM job_keys ORDER BY job_key");
            List<String> rows = new ArrayList<>();
            while (rs.next()) rows.add(rs.getString(1) + "|" + rs.getString(2) + "|" + rs.getString(3));
            assertThat(rows).containsExactly("k-a|team-a|job-a", "k-d|default|job-d", "k-gone|default|job-without-row");
            // the key is free in another namespace, still taken in its own
            s.execute("INSERT INTO job_keys (job_key, namespace, job_id) VALUES ('k-a', 'team-b', 'job-b')");
            assertThatThrownBy(() -> s.execute(
                            "INSERT INTO job_keys (job_key, namespace, job_id) VALUES ('k-a', 'team-a', 'job-x')"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("Duplicate");
        }
    }

    @Test
    void alert_deliveries_made_before_ax_system_move_there_and_a_teams_own_types_stay() throws SQLException {
        String db = TestDatabase.freshDatabase("system_migration");
        migrate(db, "44");
        try (Connection c = TestDatabase.connect(db)) {
            var s = c.createStatement();
            s.execute("INSERT INTO job_queue (job_id, job_key, job_type, status, claimable, priority, neg_priority,"
                    + " run_at, attempt, max_retries, timeout_ms, created_at, updated_at, namespace) VALUES"
                    + " ('delivery', 'alert:r1:FIRING:1:hook', 'ax-alert', 'RETRY_WAITING', 1, 0, 0, 1, 1, 5, 1000,"
                    + " 1, 1, 'default'),"
                    + " ('billing-job', 'nightly-bill', 'noop', 'FAILED', 0, 0, 0, 1, 1, 0, 1000, 1, 1,"
                    + " 'billing'),"
                    // a team's own type spelt in capitals: only lower-case ax- is the scheduler's
                    + " ('team-ax', 'Alert:team-key', 'AX-report', 'RETRY_WAITING', 1, 0, 0, 1, 1, 3, 1000, 1, 1,"
                    + " 'team-a')");
            s.execute("INSERT INTO DomainEventEntry (aggregateIdentifier, sequenceNumber, type, eventIdentifier,"
                    + " payload, payloadType, timeStamp) VALUES ('team-ax', 0, 'Job', 'e-team-ax',"
                    + " '{\"jobId\":\"team-ax\",\"jobType\":\"AX-report\",\"namespace\":\"team-a\"}',"
                    + " 'io.axscheduler.api.job.JobCreated', '2026-12-01T00:00:00Z')");
            s.execute("INSERT INTO job_keys (job_key, namespace, job_id) VALUES"
                    + " ('alert:r1:FIRING:1:hook', 'default', 'delivery'), ('nightly-bill', 'billing',"
                    + " 'billing-job'), ('Alert:team-key', 'team-a', 'team-ax')");
            s.execute("INSERT INTO job_failures (job_id, attempt, job_type, outcome, for_good, failed_at, namespace)"
                    + " VALUES ('delivery', 1, 'ax-alert', 'FAILED', 0, 1, 'default'),"
                    + " ('billing-job', 1, 'noop', 'FAILED', 1, 1, 'billing'),"
                    + " ('team-ax', 1, 'AX-report', 'FAILED', 0, 1, 'team-a')");
            // counts of the same minute in two namespaces, one already in ax-system, and a team's own
            s.execute("INSERT INTO stats_outcomes (minute_at, namespace, job_type, outcome, jobs) VALUES"
                    + " (60000, 'default', 'ax-alert', 'FAILED', 3), (60000, 'billing', 'ax-alert', 'FAILED', 2),"
                    + " (60000, 'ax-system', 'ax-alert', 'FAILED', 1), (60000, 'default', 'noop', 'FAILED', 7),"
                    + " (120000, 'default', 'ax-alert', 'SUCCEEDED', 4)");
            s.execute("INSERT INTO stats_outcomes_hourly (hour_at, namespace, job_type, outcome, jobs) VALUES"
                    + " (0, 'default', 'ax-alert', 'FAILED', 5), (0, 'default', 'noop', 'FAILED', 7)");
        }
        migrate(db, null);
        try (Connection c = TestDatabase.connect(db)) {
            var s = c.createStatement();
            // V45 moved the team's AX-report job too (its comparison ignored case); V46 puts it back
            assertThat(rows(s, "SELECT job_id, namespace FROM job_queue ORDER BY job_id"))
                    .containsExactly("billing-job|billing", "delivery|ax-system", "team-ax|team-a");
            assertThat(rows(s, "SELECT job_key, namespace FROM job_keys ORDER BY job_key"))
                    .containsExactly(
                            "Alert:team-key|team-a", "alert:r1:FIRING:1:hook|ax-system", "nightly-bill|billing");
            assertThat(rows(s, "SELECT job_id, namespace FROM job_failures ORDER BY job_id"))
                    .containsExactly("billing-job|billing", "delivery|ax-system", "team-ax|team-a");
            assertThat(rows(
                            s,
                            "SELECT minute_at, namespace, job_type, outcome, jobs FROM stats_outcomes"
                                    + " ORDER BY minute_at, namespace, job_type"))
                    .containsExactly(
                            "60000|ax-system|ax-alert|FAILED|6",
                            "60000|default|noop|FAILED|7",
                            "120000|ax-system|ax-alert|SUCCEEDED|4");
            assertThat(rows(
                            s,
                            "SELECT hour_at, namespace, job_type, outcome, jobs FROM stats_outcomes_hourly"
                                    + " ORDER BY namespace"))
                    .containsExactly("0|ax-system|ax-alert|FAILED|5", "0|default|noop|FAILED|7");
        }
    }

    /** Migrates {@code db} up to {@code target}, or to the latest when null. */
    private static void migrate(String db, String target) {
        var flyway = Flyway.configure()
                .dataSource(db, TestDatabase.user(), TestDatabase.password())
                .locations("classpath:db/migration");
        if (target != null) flyway.target(target);
        flyway.load().migrate();
    }

    private static List<String> rows(java.sql.Statement s, String sql) throws SQLException {
        var rs = s.executeQuery(sql);
        int columns = rs.getMetaData().getColumnCount();
        List<String> rows = new ArrayList<>();
        while (rs.next()) {
            StringBuilder row = new StringBuilder();
            for (int i = 1; i <= columns; i++) row.append(i == 1 ? "" : "|").append(rs.getString(i));
            rows.add(row.toString());
        }
        return rows;
    }

    @Test
    void the_change_stream_tells_a_subscriber_only_of_the_namespaces_it_may_see() {
        Api.Response made = node.api.post(
                "/api/v1/admin/api-keys",
                "{\"name\":\"viewer-a\",\"grants\":[{\"namespace\":\"" + A + "\",\"role\":\"VIEWER\"}]}");
        assertThat(made.status()).isEqualTo(201);
        Api viewerOfA = node.api.as(made.text("key"));
        List<String> seenByA = new CopyOnWriteArrayList<>();
        List<String> seenByAdmin = new CopyOnWriteArrayList<>();
        Thread a = EventStream.listen(viewerOfA, "/api/v1/stream", seenByA);
        Thread admin = EventStream.listen(node.api, "/api/v1/stream?namespace=" + B, seenByAdmin);
        try {
            Await.until(
                    Duration.ofSeconds(10),
                    () -> seenByA.contains(":open") && seenByAdmin.contains(":open"),
                    () -> seenByA + " " + seenByAdmin);
            String ofB = node.api.submit("{\"jobType\":\"noop\",\"namespace\":\"" + B + "\"}");
            String ofA = node.api.submit("{\"jobType\":\"noop\",\"namespace\":\"" + A + "\"}");
            node.api.awaitStatus(ofB, "SUCCEEDED");
            node.api.awaitStatus(ofA, "SUCCEEDED");
            // changes reach subscribers in order: once A's last change is heard, B's earlier ones have been decided
            Await.until(
                    Duration.ofSeconds(10),
                    () -> seenByA.stream().anyMatch(l -> l.contains(ofA) && l.contains("JobSucceeded"))
                            && seenByAdmin.stream().anyMatch(l -> l.contains(ofB) && l.contains("JobSucceeded")),
                    () -> seenByA + " " + seenByAdmin);
            assertThat(seenByA).noneMatch(l -> l.contains(ofB));
            assertThat(seenByA)
                    .filteredOn(l -> l.contains(ofA))
                    .allMatch(l -> l.contains("\"namespace\":\"" + A + "\""));
            assertThat(seenByAdmin).noneMatch(l -> l.contains(ofA));

            // the key revoked: its open stream ends within recheck-ms (5 s), and its reconnect is refused
            assertThat(ScheduleHttp.delete(node.api, "/api/v1/admin/api-keys/" + made.text("id"))
                            .status())
                    .isEqualTo(204);
            Await.until(Duration.ofSeconds(15), () -> seenByA.contains(":closed"), seenByA::toString);
            List<String> again = new CopyOnWriteArrayList<>();
            EventStream.listen(viewerOfA, "/api/v1/stream", again);
            Await.until(Duration.ofSeconds(10), () -> !again.isEmpty(), again::toString);
            assertThat(again.get(0)).startsWith("status 401");
            assertThat(seenByAdmin).doesNotContain(":closed");
        } finally {
            a.interrupt();
            admin.interrupt();
        }
    }

    static HttpResponse<String> callback(String body, long timestamp, String signature) throws Exception {
        return http.send(
                node.api
                        .authorized(HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + node.api.port + "/api/v1/workers/callbacks")))
                        .header("Content-Type", "application/json")
                        .header(CallbackSignature.TIMESTAMP_HEADER, String.valueOf(timestamp))
                        .header(CallbackSignature.SIGNATURE_HEADER, signature)
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
