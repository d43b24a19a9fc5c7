package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.axscheduler.api.TextLimit;
import io.axscheduler.api.worker.CallbackSignature;
import io.axscheduler.api.worker.PushedJob;
import io.axscheduler.api.worker.RegisterWorker;
import io.axscheduler.api.worker.StopRun;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * One node and two demo workers over real HTTP: registry, round-robin spread, sharding broadcast; and a fake worker
 * whose callbacks the test signs itself, for duplicate, forged, stale and replayed callbacks.
 */
class WorkerRemoteIT {

    static Node node;
    static WorkerNode one;
    static WorkerNode two;
    static final Queue<WorkerNode.Run> runs = new ConcurrentLinkedQueue<>();
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void start() {
        node = Node.start(
                TestDatabase.freshDatabase("workers"),
                "node-w",
                Map.of(
                        "ax.scheduler.workers.heartbeat-interval-ms", "1000",
                        "ax.scheduler.workers.expiry-check-ms", "500"));
        // worker one speaks with a key of its own, as a deployment gives each app one; two with the admin's
        Api.Response key = node.api.post(
                "/api/v1/admin/api-keys",
                "{\"name\":\"demo-worker-one\",\"grants\":[{\"namespace\":\"default\",\"role\":\"WORKER\"}]}");
        assertThat(key.status()).as(key.body().toString()).isEqualTo(201);
        one = WorkerNode.start("one", node.api.port, "demo", runs, Map.of("ax.worker.api-key", key.text("key")));
        two = WorkerNode.start("two", node.api.port, "demo", runs, Map.of());
        node.api.awaitWorkers(2, Duration.ofSeconds(20));
    }

    @AfterAll
    static void stop() {
        one.close();
        two.close();
        node.close();
    }

    static JsonNode awaitStatus(String jobId, String status) {
        return node.api.awaitStatus(jobId, status);
    }

    static List<JsonNode> events(String jobId) {
        List<JsonNode> events = new ArrayList<>();
        node.api.get("/api/v1/jobs/" + jobId + "/history").body().path("events").forEach(events::add);
        return events;
    }

    @Test
    void workers_are_listed_with_app_address_job_types_and_health() {
        List<JsonNode> items = new ArrayList<>();
        node.api.get("/api/v1/workers").body().path("items").forEach(w -> {
            if (w.path("app").asText().equals("demo")) items.add(w);
        });
        assertThat(items)
                .extracting(w -> w.path("workerId").asText())
                .containsExactlyInAnyOrder(one.workerId(), two.workerId());
        for (JsonNode worker : items) {
            assertThat(worker.path("app").asText()).isEqualTo("demo");
            assertThat(worker.path("address").asText()).startsWith("http://127.0.0.1:");
            assertThat(worker.path("jobTypes").toString()).contains("echo", "sleep", "flaky");
            assertThat(worker.path("lastHeartbeat").asText()).endsWith("Z");
            assertThat(worker.path("consecutiveFailures").asInt()).isZero();
            assertThat(worker.path("coolingDown").asBoolean()).isFalse();
            assertThat(worker.path("state").asText()).isEqualTo("LIVE");
            assertThat(worker.has("inFlight")).isTrue();
        }
    }

    @Test
    void a_registration_without_job_types_or_address_is_refused_naming_the_fields() {
        Api.Response r = node.api.post(
                "/api/v1/workers/register", "{\"app\":\"x\",\"address\":\"ftp://h\",\"jobTypes\":[],\"capacity\":0}");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.body().path("errors").toString()).contains("address", "jobTypes", "capacity");
    }

    @Test
    void a_type_only_remote_workers_run_is_accepted_and_round_robin_spreads_jobs_evenly() {
        List<String> jobIds = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            jobIds.add(node.api.submit(
                    "{\"jobType\":\"echo\",\"executorApp\":\"demo\",\"routeStrategy\":\"ROUND_ROBIN\",\"params\":{\"i\":"
                            + i + "}}"));
        }
        Map<String, Long> byWorker = jobIds.stream()
                .map(id -> awaitStatus(id, "SUCCEEDED"))
                .collect(Collectors.groupingBy(job -> job.path("worker").asText(), Collectors.counting()));
        assertThat(byWorker).containsOnlyKeys(one.workerId(), two.workerId());
        assertThat(byWorker.values()).containsOnly(5L);

        JsonNode started = events(jobIds.get(0)).stream()
                .filter(e -> e.path("type").asText().equals("JobStarted"))
                .findFirst()
                .orElseThrow();
        JsonNode succeeded = events(jobIds.get(0)).stream()
                .filter(e -> e.path("type").asText().equals("JobSucceeded"))
                .findFirst()
                .orElseThrow();
        assertThat(started.path("payload").path("worker").asText()).isIn(one.workerId(), two.workerId());
        assertThat(succeeded.path("metadata").path("worker").asText())
                .isEqualTo(started.path("payload").path("worker").asText());

        // an outcome is told by the worker's callback: its actor is the key that sent it, not the node
        for (String jobId : jobIds) {
            JsonNode outcome = events(jobId).stream()
                    .filter(e -> e.path("type").asText().equals("JobSucceeded"))
                    .findFirst()
                    .orElseThrow();
            String worker = outcome.path("metadata").path("worker").asText();
            assertThat(outcome.path("metadata").path("actor").asText())
                    .as(outcome.toString())
                    .isEqualTo(worker.equals(one.workerId()) ? "key:demo-worker-one" : "key:bootstrap-admin");
        }
    }

    @Test
    void a_job_waiting_while_every_worker_is_at_capacity_is_explained_so() {
        // two workers of capacity 4: eight run, the ninth waits for room
        Instant submittedAt = Instant.now();
        List<String> jobIds = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            jobIds.add(node.api.submit(
                    "{\"jobType\":\"sleep\",\"executorApp\":\"demo\",\"params\":{\"ms\":6000},\"timeoutMs\":60000}"));
        }
        Await.until(
                Duration.ofSeconds(20),
                () -> jobIds.stream()
                                .filter(id -> node.api
                                        .get("/api/v1/jobs/" + id)
                                        .text("status")
                                        .equals("RUNNING"))
                                .count()
                        == 8,
                () -> jobIds.stream()
                        .map(id -> node.api.get("/api/v1/jobs/" + id).text("status"))
                        .toList()
                        .toString());
        String waiting = jobIds.stream()
                .filter(id -> !node.api.get("/api/v1/jobs/" + id).text("status").equals("RUNNING"))
                .findFirst()
                .orElseThrow();
        // a heartbeat carries the worker's own count, which can lag a push for a moment: the next one agrees
        Await.until(
                Duration.ofSeconds(4),
                () -> node.api
                        .get("/api/v1/jobs/" + waiting + "/explain")
                        .body()
                        .at("/reasons/0/code")
                        .asText()
                        .equals("WORKERS_FULL"),
                () -> node.api.get("/api/v1/jobs/" + waiting + "/explain").body() + " "
                        + node.jdbc().queryForList("SELECT worker_id, capacity, in_flight, job_types FROM workers"));
        JsonNode explained =
                node.api.get("/api/v1/jobs/" + waiting + "/explain").body();
        assertThat(explained.at("/reasons/0/details/workers").size()).isEqualTo(2);
        // since the job became due: it has waited for room at least so long
        assertThat(Instant.parse(explained.at("/reasons/0/since").asText()))
                .isBetween(submittedAt.minusSeconds(1), Instant.now());
        assertThat(explained
                        .at("/reasons/0/details/workers/" + one.workerId() + "/capacity")
                        .asInt())
                .isEqualTo(4);
        // and it runs when one has room
        jobIds.forEach(id -> awaitStatus(id, "SUCCEEDED"));
    }

    @Test
    void an_outcome_recorded_but_not_told_to_the_job_is_told_when_the_callback_comes_again() {
        // as if a node had stored the callback's row and died before the job's command: the row says SUCCEEDED, the
        // job still runs; the worker's callback (here its first, in life its retry on another node) finishes it
        String jobId = node.api.submit("{\"jobType\":\"sleep\",\"executorApp\":\"demo\",\"params\":{\"ms\":3000},"
                + "\"timeoutMs\":120000,\"maxRetries\":0}");
        awaitStatus(jobId, "RUNNING");
        int rows = node.jdbc()
                .update(
                        "UPDATE worker_dispatches SET status = 'SUCCEEDED', result = 'told before', duration_ms = 5"
                                + " WHERE job_id = ? AND status = 'PUSHED'",
                        jobId);
        assertThat(rows).isEqualTo(1);
        Await.until(
                Duration.ofSeconds(15),
                () -> node.api.get("/api/v1/jobs/" + jobId).text("status").equals("SUCCEEDED"),
                () -> node.api.get("/api/v1/jobs/" + jobId).body().toString());
        assertThat(node.api.get("/api/v1/jobs/" + jobId).text("result")).isEqualTo("told before");
        assertThat(node.api.eventTypes(jobId)).doesNotContain("JobTimedOut");
    }

    @Test
    void a_remote_run_stopped_at_its_timeout_is_timed_out_as_in_process_not_failed() {
        String jobId = node.api.submit("{\"jobType\":\"sleep\",\"executorApp\":\"demo\",\"params\":{\"ms\":5000},"
                + "\"timeoutMs\":1000,\"maxRetries\":0}");
        JsonNode job = awaitStatus(jobId, "TIMED_OUT");
        assertThat(job.path("attempt").asInt()).isEqualTo(1);
        List<JsonNode> history = events(jobId);
        assertThat(history.stream().map(e -> e.path("type").asText()))
                .contains("JobTimedOut")
                .doesNotContain("JobFailed");
        JsonNode timedOut = history.stream()
                .filter(e -> e.path("type").asText().equals("JobTimedOut"))
                .findFirst()
                .orElseThrow();
        assertThat(timedOut.path("payload").path("phase").asText()).isEqualTo("RUN");
        // said as an in-process timeout is, and where it ran
        assertThat(timedOut.path("payload").path("reason").asText())
                .startsWith("it ran longer than its timeoutMs (1000 ms) on worker ");
        assertThat(job.path("lastError").asText()).contains("ran longer than its timeoutMs (1000 ms)");
        // told by the worker's callback (its key), not decided by the node's run deadline (scheduler)
        assertThat(timedOut.path("metadata").path("actor").asText()).startsWith("key:");
    }

    @Test
    void a_sharding_broadcast_runs_once_on_each_worker_and_succeeds_when_both_shards_do() {
        String jobId = node.api.submit(
                "{\"jobType\":\"echo\",\"executorApp\":\"demo\",\"routeStrategy\":\"SHARDING_BROADCAST\"}");
        JsonNode job = awaitStatus(jobId, "SUCCEEDED");

        List<WorkerNode.Run> shards =
                runs.stream().filter(r -> r.jobId().equals(jobId)).toList();
        assertThat(shards).hasSize(2);
        assertThat(shards).extracting(WorkerNode.Run::worker).containsExactlyInAnyOrder("one", "two");
        assertThat(shards).extracting(r -> String.valueOf(r.shardIndex())).containsExactlyInAnyOrder("0", "1");
        assertThat(shards).extracting(r -> String.valueOf(r.shardTotal())).containsOnly("2");
        assertThat(job.path("attempt").asInt()).isEqualTo(1);
        assertThat(job.path("result").asText()).startsWith("all 2 shards succeeded");
        assertThat(job.path("worker").asText()).contains(one.workerId()).contains(two.workerId());
    }

    @Test
    void a_failing_shard_fails_the_broadcast_and_the_retry_runs_every_shard_again() {
        String jobId = node.api.submit(
                "{\"jobType\":\"flaky\",\"executorApp\":\"demo\",\"routeStrategy\":\"SHARDING_BROADCAST\","
                        + "\"params\":{\"failTimes\":1},\"maxRetries\":2,\"backoff\":{\"delaysMs\":[200]}}");
        JsonNode job = awaitStatus(jobId, "SUCCEEDED");
        assertThat(job.path("attempt").asInt()).isEqualTo(2);
        assertThat(runs.stream().filter(r -> r.jobId().equals(jobId) && r.attempt() == 2 && r.succeeded()))
                .hasSize(2);
    }

    @Test
    void a_duplicate_or_late_callback_changes_nothing_and_forged_stale_or_replayed_ones_are_refused() throws Exception {
        List<String> pushed = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<String> waits = new java.util.concurrent.CopyOnWriteArrayList<>();
        HttpServer fake = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        fake.createContext("/ax-worker/jobs", exchange -> {
            pushed.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            waits.add(String.valueOf(exchange.getRequestHeaders().getFirst(PushedJob.ANSWER_WITHIN_HEADER)));
            byte[] answer = "{\"state\":\"ACCEPTED\",\"outcome\":null}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(202, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        fake.start();
        try {
            Api.Response registered = node.api.post(
                    "/api/v1/workers/register",
                    "{\"app\":\"fake\",\"address\":\"http://127.0.0.1:"
                            + fake.getAddress().getPort() + "\",\"jobTypes\":[\"fake-type\"],\"capacity\":2}");
            assertThat(registered.status()).isEqualTo(201);
            String workerId = registered.text("workerId");
            String secret = registered.text("secret");

            String jobId = node.api.submit("{\"jobType\":\"fake-type\",\"executorApp\":\"fake\"}");
            awaitStatus(jobId, "RUNNING");
            assertThat(pushed).hasSize(1);
            // the push says how long the node waits for its answer: a worker reading it later does not run it
            assertThat(Long.parseLong(waits.get(0))).isPositive().isLessThanOrEqualTo(15_000);
            // a result longer than the column: the event records it cut as the job_queue row does
            String result = "done" + "!".repeat(TextLimit.MAX_CHARS);
            String body =
                    "{\"workerId\":\"" + workerId + "\",\"jobId\":\"" + jobId + "\",\"attempt\":1,\"shardIndex\":0,"
                            + "\"succeeded\":true,\"result\":\"" + result + "\",\"error\":null,\"durationMs\":5}";
            long now = System.currentTimeMillis();

            assertThat(callback(body, null, null)).isEqualTo(401);
            assertThat(callback(body, now, CallbackSignature.sign("not-the-secret", now, body)))
                    .isEqualTo(401);
            assertThat(callback(body, now - 3_600_000, CallbackSignature.sign(secret, now - 3_600_000, body)))
                    .isEqualTo(401);
            assertThat(node.api.get("/api/v1/jobs/" + jobId).text("status")).isEqualTo("RUNNING");

            String signature = CallbackSignature.sign(secret, now, body);
            assertThat(callback(body, now, signature)).isEqualTo(200);
            JsonNode job = awaitStatus(jobId, "SUCCEEDED");
            assertThat(job.path("worker").asText()).isEqualTo(workerId);
            int eventsAfterSuccess = events(jobId).size();

            assertThat(callback(body, now, signature))
                    .as("the same request replayed")
                    .isEqualTo(401);
            long later = now + 10;
            assertThat(callback(body, later, CallbackSignature.sign(secret, later, body)))
                    .as("a duplicate, freshly signed")
                    .isEqualTo(200);
            String failed = body.replace("\"succeeded\":true", "\"succeeded\":false");
            assertThat(callback(failed, later + 1, CallbackSignature.sign(secret, later + 1, failed)))
                    .as("a late failure")
                    .isEqualTo(200);

            // from a worker id no longer (or never) registered: 404 saying so, not a signature refusal
            String unknown = body.replace(workerId, "removed-worker");
            HttpResponse<String> gone =
                    callbackAnswer(unknown, later + 2, CallbackSignature.sign(secret, later + 2, unknown));
            assertThat(gone.statusCode()).isEqualTo(404);
            assertThat(gone.body()).contains("not registered");

            assertThat(events(jobId)).hasSize(eventsAfterSuccess);
            assertThat(node.api.get("/api/v1/jobs/" + jobId).text("status")).isEqualTo("SUCCEEDED");
            assertThat(node.api.get("/api/v1/jobs/" + jobId).text("result")).isEqualTo(TextLimit.truncate(result));
            assertThat(events(jobId)
                            .get(eventsAfterSuccess - 1)
                            .path("payload")
                            .path("result")
                            .asText())
                    .isEqualTo(TextLimit.truncate(result));
        } finally {
            fake.stop(0);
        }
    }

    @Test
    void a_cancel_stops_the_run_on_its_worker_and_the_re_run_does_not_run_beside_it() {
        String jobId = node.api.submit("{\"jobType\":\"sleep\",\"executorApp\":\"demo\",\"params\":{\"ms\":60000},"
                + "\"timeoutMs\":120000,\"maxRetries\":0}");
        awaitStatus(jobId, "RUNNING");
        long canceledAt = System.nanoTime();
        assertThat(node.api
                        .post("/api/v1/jobs/" + jobId + "/cancel", "{\"reason\":\"wrong order\"}")
                        .status())
                .isEqualTo(200);
        // the demo's sleep ends early, failing, when its run is told to stop
        Await.until(
                Duration.ofSeconds(10),
                () -> runs.stream().anyMatch(r -> r.jobId().equals(jobId) && r.attempt() == 1 && !r.succeeded()),
                () -> "attempt 1 still runs on its worker: " + runs);
        assertThat(Duration.ofNanos(System.nanoTime() - canceledAt)).isLessThan(Duration.ofSeconds(10));
        assertThat(node.api.get("/api/v1/jobs/" + jobId).text("status")).isEqualTo("CANCELED");
    }

    @Test
    void a_cancel_is_pushed_to_the_worker_at_once_and_named_on_its_heartbeats_until_it_reports() throws Exception {
        try (FakeWorker fake = new FakeWorker("fake-stop", "fake-stop-type", node.api)) {
            String jobId = node.api.submit("{\"jobType\":\"fake-stop-type\",\"executorApp\":\"fake-stop\"}");
            Await.until(
                    Duration.ofSeconds(20),
                    () -> heartbeat(fake.workerId).status() == 200
                            && node.api
                                    .get("/api/v1/jobs/" + jobId)
                                    .text("status")
                                    .equals("RUNNING"),
                    () -> node.api.get("/api/v1/jobs/" + jobId).body().toString());
            assertThat(heartbeat(fake.workerId).body().path("stop"))
                    .as("a running job's run is not named")
                    .isEmpty();

            assertThat(node.api
                            .post("/api/v1/jobs/" + jobId + "/cancel", "{\"reason\":\"wrong order\"}")
                            .status())
                    .isEqualTo(200);
            JsonNode stop = fake.awaitStop(0);
            assertThat(stop.path("jobId").asText()).isEqualTo(jobId);
            assertThat(stop.path("attempt").asInt()).isEqualTo(1);
            assertThat(stop.path("shardIndex").asInt()).isZero();
            assertThat(stop.path("reason").asText()).isEqualTo("the job was canceled: wrong order");
            assertThat(stop.path("workerTakenOut").asBoolean()).isFalse();

            // until the worker reports the run, each heartbeat names it (a worker the push missed stops it then)
            JsonNode named = heartbeat(fake.workerId).body().path("stop");
            assertThat(named).hasSize(1);
            assertThat(named.get(0).path("jobId").asText()).isEqualTo(jobId);
            assertThat(named.get(0).path("attempt").asInt()).isEqualTo(1);
            assertThat(named.get(0).path("reason").asText()).isEqualTo("the job was canceled");
            HttpResponse<String> told = fake.report(jobId, 0, false);
            assertThat(told.statusCode()).isEqualTo(200);
            assertThat(told.body()).contains("\"applied\":false");
            assertThat(heartbeat(fake.workerId).body().path("stop")).isEmpty();
            assertThat(node.api.get("/api/v1/jobs/" + jobId).text("status")).isEqualTo("CANCELED");
            assertThat(fake.stops).hasSize(1);
        }
    }

    @Test
    void a_worker_an_admin_takes_out_is_told_to_stop_its_runs_at_once() throws Exception {
        // registered with a key of its own: an admin's removal is not the worker leaving
        Api workerKey = node.api.as(node.api.newKey("fake-out-worker", "default", "WORKER"));
        try (FakeWorker fake = new FakeWorker("fake-out", "fake-out-type", workerKey)) {
            String jobId = node.api.submit(
                    "{\"jobType\":\"fake-out-type\",\"executorApp\":\"fake-out\"," + "\"maxRetries\":0}");
            awaitStatus(jobId, "RUNNING");
            assertThat(deregister(fake.workerId)).isEqualTo(204);
            // before its next heartbeat (which would be answered 410): the run stops as it is given up
            JsonNode stop = fake.awaitStop(0);
            assertThat(stop.path("jobId").asText()).isEqualTo(jobId);
            assertThat(stop.path("reason").asText())
                    .isEqualTo("worker " + fake.workerId + " was taken out by key:bootstrap-admin");
            assertThat(stop.path("workerTakenOut").asBoolean())
                    .as("it is told it is out")
                    .isTrue();
            awaitStatus(jobId, "TIMED_OUT");
            // its late outcome is refused, saying how it was taken out
            HttpResponse<String> late = fake.report(jobId, 0, true);
            assertThat(late.statusCode()).isEqualTo(404);
            assertThat(late.body()).contains("it was taken out at ").contains("removed by key:bootstrap-admin");
            // taken out is not unknown: a second removal says what happened
            Api.Response again = ScheduleHttp.delete(node.api, "/api/v1/workers/" + fake.workerId);
            assertThat(again.status()).isEqualTo(404);
            assertThat(again.text("detail"))
                    .contains("is not registered: it was taken out at ")
                    .contains("removed by key:bootstrap-admin");
        }
    }

    @Test
    void a_type_whose_workers_all_left_is_still_taken_and_its_jobs_run_when_a_worker_comes_back() throws Exception {
        String type = "restarting-type";
        // the type's only worker leaves (a rolling restart's stop: it deregisters)
        try (FakeWorker leaving = new FakeWorker("restarting", type, node.api)) {
            assertThat(worker(leaving.workerId).isNull()).isFalse();
        }
        // and a second type's only worker goes silent (killed: it is removed after missing its heartbeats)
        Api.Response killed = node.api.post(
                "/api/v1/workers/register",
                "{\"app\":\"killed\",\"address\":\"http://127.0.0.1:9\",\"jobTypes\":[\"killed-type\"],"
                        + "\"capacity\":1}");
        assertThat(killed.status()).as(killed.body().toString()).isEqualTo(201);
        Await.until(
                Duration.ofSeconds(10),
                () -> worker(killed.text("workerId")).isNull(),
                () -> "the silent worker is still registered: " + worker(killed.text("workerId")));

        // their jobs are taken while no worker runs them, and wait for one
        String waiting = node.api.submit("{\"jobType\":\"" + type + "\",\"maxRetries\":0}");
        String bound = node.api.submit("{\"jobType\":\"killed-type\",\"executorApp\":\"killed\"}");
        // waiting; or claimed a moment by a scan that then hands it back for want of a worker
        assertThat(node.api.get("/api/v1/jobs/" + bound).text("status")).isIn("WAITING", "CLAIMED");
        Await.until(
                Duration.ofSeconds(5),
                () -> node.api
                        .get("/api/v1/jobs/" + waiting + "/explain")
                        .body()
                        .at("/reasons/0/code")
                        .asText()
                        .equals("NO_HANDLER"),
                () -> node.api
                        .get("/api/v1/jobs/" + waiting + "/explain")
                        .body()
                        .toString());
        // a type no worker of the namespace ever registered is still refused, and the known ones are listed
        Api.Response typo = node.api.post("/api/v1/jobs", "{\"jobType\":\"restarting-typo\"}");
        assertThat(typo.status()).isEqualTo(400);
        assertThat(typo.body().path("errors").toString())
                .contains("unknown job type 'restarting-typo'")
                .contains(type, "killed-type");
        // nor does another namespace know them
        Api.Response elsewhere =
                node.api.post("/api/v1/jobs", "{\"jobType\":\"" + type + "\",\"namespace\":\"other\"}");
        assertThat(elsewhere.status()).isEqualTo(400);
        assertThat(elsewhere.body().toString()).contains("unknown job type '" + type + "' in namespace 'other'");

        // the worker is back: the job that waited runs on it
        try (FakeWorker back = new FakeWorker("restarting", type, node.api)) {
            awaitStatus(waiting, "RUNNING");
            assertThat(back.report(waiting, 0, true).statusCode()).isEqualTo(200);
            assertThat(awaitStatus(waiting, "SUCCEEDED").path("worker").asText())
                    .isEqualTo(back.workerId);
        }

        // a type is known for ax.scheduler.workers.types-kept-ms (a day) after its last worker left, no longer
        node.jdbc()
                .update("UPDATE worker_job_types SET left_at = left_at - 86400001 WHERE job_type = ?", "killed-type");
        Await.until(
                Duration.ofSeconds(5),
                () -> {
                    Api.Response r = node.api.post("/api/v1/jobs", "{\"jobType\":\"killed-type\"}");
                    // taken while the node's snapshot of the types is at most a second old: not left waiting
                    if (r.status() == 201) node.api.post("/api/v1/jobs/" + r.text("jobId") + "/cancel", "{}");
                    return r.status() == 400;
                },
                () -> "a type whose last worker left over a day ago is still taken");
        assertThat(node.api
                        .post("/api/v1/jobs/" + bound + "/cancel", "{\"reason\":\"test over\"}")
                        .status())
                .isEqualTo(200);
    }

    @Test
    void a_worker_registering_again_at_its_address_replaces_the_earlier_registration_at_once() throws Exception {
        try (FakeWorker fake = new FakeWorker("fake-restart", "fake-restart-type", node.api)) {
            String jobId = node.api.submit(
                    "{\"jobType\":\"fake-restart-type\",\"executorApp\":\"fake-restart\"," + "\"maxRetries\":0}");
            awaitStatus(jobId, "RUNNING");
            // the service restarted before its registration went silent: the same app at the same address, from
            // another process
            Api.Response again = registerAgain(fake, "restarted-process");
            assertThat(again.status()).isEqualTo(201);
            String now = again.text("workerId");
            assertThat(worker(fake.workerId).isNull())
                    .as("the earlier registration is gone")
                    .isTrue();
            awaitStatus(jobId, "TIMED_OUT");
            assertThat(node.api.timedOutReasons(jobId))
                    .containsExactly("its worker " + fake.workerId + " was replaced by " + now
                            + ", registered at its address (its service restarted)");
            // a process still heartbeating as the earlier registration shares the address with another: it is told
            Api.Response earlier = heartbeat(fake.workerId);
            assertThat(earlier.status()).as(earlier.body().toString()).isEqualTo(410);
            assertThat(earlier.text("detail"))
                    .contains("replaced by worker " + now)
                    .contains("two worker processes share that address; give each an address of its own");

            // the same process registering again (its first answer lost): the earlier registration just goes, as
            // one its process no longer uses, and a heartbeat of it would be told to register again
            Api.Response retry = registerAgain(fake, "restarted-process");
            assertThat(retry.status()).isEqualTo(201);
            assertThat(worker(now).isNull()).isTrue();
            assertThat(heartbeat(now).status()).isEqualTo(404);
            assertThat(deregister(retry.text("workerId"))).isEqualTo(204);
        }
    }

    /** A registration of the fake worker's app at its address, from the process {@code instance}. */
    static Api.Response registerAgain(FakeWorker fake, String instance) {
        return node.api.post(
                "/api/v1/workers/register",
                "{\"app\":\"fake-restart\",\"address\":\"http://127.0.0.1:"
                        + fake.server.getAddress().getPort()
                        + "/\",\"jobTypes\":[\"fake-restart-type\"],\"capacity\":2}",
                RegisterWorker.INSTANCE_HEADER,
                instance);
    }

    @Test
    void two_worker_processes_at_one_address_do_not_replace_each_other_in_turn() throws InterruptedException {
        // configured alike (or behind one load balancer): the second's registration replaces the first's, which
        // registered again on its next heartbeat and replaced the second's, each time timing out the other's runs
        try (WorkerNode first = WorkerNode.start("twin-1", node.api.port, "twin", runs, Map.of())) {
            String address = "http://127.0.0.1:" + first.port();
            try (WorkerNode second =
                    WorkerNode.start("twin-2", node.api.port, "twin", runs, Map.of("ax.worker.address", address))) {
                Await.until(
                        Duration.ofSeconds(10), first::removed, () -> "the replaced process was not told: " + twins());
                String serving = second.workerId();
                long until = System.currentTimeMillis() + 3_500;
                while (System.currentTimeMillis() < until) {
                    assertThat(twins())
                            .as("the one registered last serves the address")
                            .containsExactly(serving);
                    Thread.sleep(250);
                }
                assertThat(second.removed()).isFalse();
            }
        }
    }

    static List<String> twins() {
        List<String> ids = new ArrayList<>();
        for (JsonNode w : node.api.get("/api/v1/workers").body().path("items")) {
            if (w.path("app").asText().equals("twin"))
                ids.add(w.path("workerId").asText());
        }
        return ids;
    }

    @Test
    void only_its_own_key_or_an_admin_may_register_over_a_worker_still_heard() throws Exception {
        Api first = node.api.as(workerKey("held-first")), second = node.api.as(workerKey("held-second"));
        String address = "http://127.0.0.1:" + closedPort();
        String body = "{\"app\":\"held\",\"address\":\"" + address + "\",\"jobTypes\":[\"held-type\"],\"capacity\":1}";
        Api.Response held = first.post("/api/v1/workers/register", body);
        assertThat(held.status()).isEqualTo(201);
        String heldId = held.text("workerId");

        // another principal of the namespace would take the address, removing the worker and timing out its runs
        Api.Response taken = second.post("/api/v1/workers/register", body);
        assertThat(taken.status()).as(taken.body().toString()).isEqualTo(403);
        assertThat(taken.text("detail"))
                .contains("worker " + heldId + " of app held is registered at " + address + " by another principal");
        assertThat(worker(heldId).isNull()).as("still registered").isFalse();

        // its own key may (a restarted service), and so may an admin
        Api.Response restarted = first.post("/api/v1/workers/register", body);
        assertThat(restarted.status()).isEqualTo(201);
        assertThat(worker(heldId).isNull()).as("replaced").isTrue();
        Api.Response byAdmin = node.api.post("/api/v1/workers/register", body);
        assertThat(byAdmin.status()).isEqualTo(201);
        assertThat(worker(restarted.text("workerId")).isNull()).isTrue();
        assertThat(deregister(byAdmin.text("workerId"))).isEqualTo(204);

        // and a port no socket has is refused at the registration, not at the first push
        Api.Response badPort = first.post("/api/v1/workers/register", body.replace(address, "http://127.0.0.1:99999"));
        assertThat(badPort.status()).isEqualTo(400);
        assertThat(badPort.body().at("/errors/0/field").asText()).isEqualTo("address");
        assertThat(badPort.body().at("/errors/0/message").asText()).isEqualTo("port must be 1 to 65535");
    }

    private static String workerKey(String name) {
        Api.Response made = node.api.post(
                "/api/v1/admin/api-keys",
                "{\"name\":\"" + name + "\",\"grants\":[{\"namespace\":\"default\",\"role\":\"WORKER\"}]}");
        assertThat(made.status()).as(made.body().toString()).isEqualTo(201);
        return made.text("key");
    }

    @Test
    void a_broadcast_shard_that_fails_stops_the_other_shards_at_once() throws Exception {
        try (FakeWorker first = new FakeWorker("fake-bc", "fake-bc-type", node.api);
                FakeWorker second = new FakeWorker("fake-bc", "fake-bc-type", node.api)) {
            String jobId = node.api.submit("{\"jobType\":\"fake-bc-type\",\"executorApp\":\"fake-bc\","
                    + "\"routeStrategy\":\"SHARDING_BROADCAST\",\"maxRetries\":0}");
            awaitStatus(jobId, "RUNNING");
            Await.until(
                    Duration.ofSeconds(10),
                    () -> first.pushes.size() + second.pushes.size() == 2,
                    () -> first.pushes + " " + second.pushes);
            FakeWorker failing = first.pushes.isEmpty() ? second : first;
            FakeWorker other = failing == first ? second : first;
            int failingShard =
                    Api.JSON.readTree(failing.pushes.get(0)).path("shardIndex").asInt();
            assertThat(failing.report(jobId, failingShard, false).statusCode()).isEqualTo(200);
            awaitStatus(jobId, "FAILED");
            JsonNode stop = other.awaitStop(0);
            assertThat(stop.path("shardIndex").asInt()).isEqualTo(1 - failingShard);
            assertThat(stop.path("reason").asText())
                    .isEqualTo("attempt 1 failed: shard " + failingShard + " of 2 failed");
            assertThat(failing.stops).as("the failed shard is not told").isEmpty();
        }
    }

    @Test
    void a_broadcast_whose_worker_is_taken_out_stops_the_other_shards_before_its_retry() throws Exception {
        Api workerKey = node.api.as(node.api.newKey("fake-bcr-worker", "default", "WORKER"));
        try (FakeWorker first = new FakeWorker("fake-bcr", "fake-bcr-type", workerKey);
                FakeWorker second = new FakeWorker("fake-bcr", "fake-bcr-type", workerKey)) {
            String jobId = node.api.submit("{\"jobType\":\"fake-bcr-type\",\"executorApp\":\"fake-bcr\","
                    + "\"routeStrategy\":\"SHARDING_BROADCAST\",\"maxRetries\":0}");
            awaitStatus(jobId, "RUNNING");
            assertThat(deregister(first.workerId)).isEqualTo(204);
            awaitStatus(jobId, "TIMED_OUT");
            JsonNode stop = second.awaitStop(0);
            assertThat(stop.path("jobId").asText()).isEqualTo(jobId);
            assertThat(stop.path("reason").asText())
                    .isEqualTo("attempt 1 timed out: worker " + first.workerId + " was removed by key:bootstrap-admin"
                            + " while running it");
        }
    }

    /**
     * A worker over real HTTP that takes every push and records the stops it is sent, each checked to be signed with
     * its secret; it sends no heartbeat unless the test does. Registered with {@code api}'s key, deregistered (taken
     * out) when closed.
     */
    static final class FakeWorker implements AutoCloseable {
        /** Its process, as the worker library names it. */
        final String instance = java.util.UUID.randomUUID().toString();

        final HttpServer server;
        final List<String> pushes = new java.util.concurrent.CopyOnWriteArrayList<>();
        final List<String> stops = new java.util.concurrent.CopyOnWriteArrayList<>();
        final String workerId;
        final String secret;

        FakeWorker(String app, String jobType, Api api) throws IOException {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext(PushedJob.PATH, exchange -> {
                pushes.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                answer(exchange, 202, "{\"state\":\"ACCEPTED\"}");
            });
            server.createContext(StopRun.PATH, exchange -> {
                String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                String at = exchange.getRequestHeaders().getFirst(CallbackSignature.TIMESTAMP_HEADER);
                String signature = exchange.getRequestHeaders().getFirst(CallbackSignature.SIGNATURE_HEADER);
                boolean signed = at != null
                        && signature != null
                        && CallbackSignature.matches(secret(), Long.parseLong(at), body, signature);
                if (signed) stops.add(body);
                answer(exchange, signed ? 200 : 401, "{\"stopped\":" + signed + "}");
            });
            server.start();
            Api.Response registered = api.post(
                    "/api/v1/workers/register",
                    "{\"app\":\"" + app + "\",\"address\":\"http://127.0.0.1:"
                            + server.getAddress().getPort() + "\",\"jobTypes\":[\"" + jobType + "\"],\"capacity\":2}",
                    RegisterWorker.INSTANCE_HEADER,
                    instance);
            assertThat(registered.status()).as(registered.body().toString()).isEqualTo(201);
            workerId = registered.text("workerId");
            secret = registered.text("secret");
        }

        private String secret() {
            return secret;
        }

        /** The {@code i}th stop this worker was sent (signed with its secret), waiting up to 5 s for it. */
        JsonNode awaitStop(int i) throws IOException {
            Await.until(Duration.ofSeconds(5), () -> stops.size() > i, () -> "no stop sent to " + workerId);
            return Api.JSON.readTree(stops.get(i));
        }

        /** Reports the shard of attempt 1, signed. */
        HttpResponse<String> report(String jobId, int shard, boolean succeeded) throws Exception {
            String body = "{\"workerId\":\"" + workerId + "\",\"jobId\":\"" + jobId + "\",\"attempt\":1,"
                    + "\"shardIndex\":" + shard + ",\"succeeded\":" + succeeded + ",\"result\":null,"
                    + "\"error\":" + (succeeded ? "null" : "\"stopped\"") + ",\"durationMs\":40}";
            long now = System.currentTimeMillis();
            return callbackAnswer(body, now, CallbackSignature.sign(secret, now, body));
        }

        @Override
        public void close() throws Exception {
            deregister(workerId);
            server.stop(0);
        }
    }

    static Api.Response heartbeat(String workerId) {
        return node.api.post("/api/v1/workers/" + workerId + "/heartbeat", "{\"inFlight\":1}");
    }

    static void answer(com.sun.net.httpserver.HttpExchange exchange, int status, String body) throws IOException {
        exchange.getRequestBody().readAllBytes();
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    @Test
    void a_worker_whose_pushes_keep_failing_cools_down_and_gets_no_new_work() throws Exception {
        Api.Response registered = registerUnreachable(node, "unreachable", "unreachable-type");
        String workerId = registered.text("workerId");
        String jobId = node.api.submit("{\"jobType\":\"unreachable-type\",\"executorApp\":\"unreachable\"}");

        Await.until(
                Duration.ofSeconds(30),
                () -> {
                    node.api.post("/api/v1/workers/" + workerId + "/heartbeat", "{\"inFlight\":0}");
                    return worker(workerId).path("coolingDown").asBoolean();
                },
                () -> worker(workerId).toString());

        assertThat(worker(workerId).path("consecutiveFailures").asInt()).isEqualTo(5);
        assertThat(worker(workerId).path("state").asText()).isEqualTo("COOLING");
        JsonNode job = node.api.get("/api/v1/jobs/" + jobId).body();
        assertThat(job.path("status").asText())
                .as("never ran: each failed push handed the claim back")
                .isEqualTo("WAITING");
        assertThat(job.path("attempt").asInt()).isZero();
        // each claim was handed back as such, not as a lapsed lease (the fifth failed push cools the worker down a
        // moment before its hand-back is stored)
        Await.until(
                Duration.ofSeconds(10),
                () -> events(jobId).stream()
                                .filter(e -> e.path("type").asText().equals("JobHandedBack"))
                                .count()
                        >= 5,
                () -> events(jobId).toString());
        List<JsonNode> history = events(jobId);
        assertThat(history)
                .filteredOn(e -> e.path("type").asText().equals("JobHandedBack"))
                .hasSizeGreaterThanOrEqualTo(5)
                .allSatisfy(e ->
                        assertThat(e.path("payload").path("reason").asText()).isEqualTo("NO_WORKER_TOOK_IT"));
        assertThat(history).noneMatch(e -> e.path("type").asText().equals("JobTimedOut"));
        Scrape metrics = Scrape.of(node);
        assertThat(metrics.value("ax_claims_handed_back_total", "reason", "no_worker_took_it"))
                .isGreaterThanOrEqualTo(5);
        assertThat(metrics.value("ax_leases_expired_total")).isZero();
        Thread.sleep(2500);
        node.api.post("/api/v1/workers/" + workerId + "/heartbeat", "{\"inFlight\":0}");
        assertThat(worker(workerId).path("consecutiveFailures").asInt())
                .as("no push while cooling down")
                .isEqualTo(5);
        // why it waits: its only worker is cooling down (not "due", nothing holding it)
        JsonNode why = node.api.get("/api/v1/jobs/" + jobId + "/explain").body();
        assertThat(why.path("reasons").findValuesAsText("code")).containsExactly("WORKERS_COOLING_DOWN", "HANDED_BACK");
        assertThat(why.at("/reasons/0/message").asText())
                .as("bound to an app: its workers, not every worker of the type")
                .startsWith("every live worker of app unreachable that registered job type unreachable-type failed")
                // what the pushes met, and where: not a sick worker's doing when a node's allow-list refuses it
                .containsPattern("worker \\S+'s last failed push: node \\S+: the push failed: .*Connection refused");
        assertThat(why.at("/reasons/0/details/lastPushErrors").has(workerId)).isTrue();
        assertThat(why.at("/reasons/1/details/reason").asText()).isEqualTo("NO_WORKER_TOOK_IT");
        assertThat(why.at("/reasons/1/details/times").asInt()).isGreaterThanOrEqualTo(5);
        assertThat(why.path("reasons")
                        .get(0)
                        .path("details")
                        .path("coolingUntil")
                        .has(workerId))
                .as(why.toString())
                .isTrue();
        assertThat(deregister(workerId)).isEqualTo(204);
    }

    /** Registers a worker of {@code app} running {@code jobType} at an address where nothing listens: pushes fail. */
    static Api.Response registerUnreachable(Node node, String app, String jobType) throws IOException {
        return node.api.post(
                "/api/v1/workers/register",
                "{\"app\":\"" + app + "\",\"address\":\"http://127.0.0.1:" + closedPort() + "\",\"jobTypes\":[\""
                        + jobType + "\"],\"capacity\":1}");
    }

    /** A port where nothing listens. */
    static int closedPort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    static int deregister(String workerId) throws IOException, InterruptedException {
        return deregister(node, workerId);
    }

    static int deregister(Node node, String workerId) throws IOException, InterruptedException {
        return http.send(
                        node.api
                                .authorized(HttpRequest.newBuilder(URI.create(
                                        "http://127.0.0.1:" + node.api.port + "/api/v1/workers/" + workerId)))
                                .DELETE()
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .statusCode();
    }

    static JsonNode worker(String workerId) {
        for (JsonNode w : node.api.get("/api/v1/workers").body().path("items")) {
            if (w.path("workerId").asText().equals(workerId)) return w;
        }
        return Api.JSON.nullNode();
    }

    static int callback(String body, Long timestamp, String signature) throws IOException, InterruptedException {
        return callbackAnswer(body, timestamp, signature).statusCode();
    }

    static HttpResponse<String> callbackAnswer(String body, Long timestamp, String signature)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = node.api
                .authorized(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + node.api.port + "/api/v1/workers/callbacks")))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (timestamp != null) request.header(CallbackSignature.TIMESTAMP_HEADER, String.valueOf(timestamp));
        if (signature != null) request.header(CallbackSignature.SIGNATURE_HEADER, signature);
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
