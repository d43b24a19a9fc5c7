package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.axscheduler.api.job.JobTimedOut;
import io.axscheduler.api.job.TimeoutPhase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.SimpleSerializedObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A worker stopped in the middle of its runs: every job still succeeds exactly once, on the worker that stayed. */
class WorkerFailoverIT {

    static Node node;
    static WorkerNode stays;
    static WorkerNode leaves;
    static final Queue<WorkerNode.Run> runs = new ConcurrentLinkedQueue<>();

    @BeforeAll
    static void start() {
        node = Node.start(
                TestDatabase.freshDatabase("worker_failover"),
                "node-f",
                Map.of(
                        "ax.scheduler.workers.heartbeat-interval-ms", "500",
                        "ax.scheduler.workers.expiry-check-ms", "300"));
        stays = WorkerNode.start("stays", node.api.port, "demo", runs, Map.of());
        leaves = WorkerNode.start("leaves", node.api.port, "demo", runs, Map.of("ax.worker.shutdown-grace-ms", "0"));
        node.api.awaitWorkers(2, Duration.ofSeconds(20));
    }

    @AfterAll
    static void stop() {
        stays.close();
        leaves.close();
        node.close();
    }

    @Test
    void jobs_running_on_a_worker_that_stops_are_timed_out_and_retried_on_the_other_one() {
        String leavingId = leaves.workerId();
        List<String> jobIds = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            jobIds.add(
                    node.api.submit(
                            "{\"jobType\":\"sleep\",\"executorApp\":\"demo\",\"routeStrategy\":\"ROUND_ROBIN\","
                                    + "\"params\":{\"ms\":2000},\"maxRetries\":3,\"backoff\":{\"delaysMs\":[200]},\"timeoutMs\":60000}"));
        }
        Await.until(
                Duration.ofSeconds(20),
                () -> jobIds.stream()
                        .allMatch(id -> "RUNNING"
                                .equals(node.api.get("/api/v1/jobs/" + id).text("status"))),
                () -> jobIds.stream()
                        .map(id -> node.api.get("/api/v1/jobs/" + id).text("status"))
                        .toList()
                        .toString());
        Set<String> onLeaving = jobIds.stream()
                .filter(id ->
                        leavingId.equals(node.api.get("/api/v1/jobs/" + id).text("worker")))
                .collect(Collectors.toSet());
        assertThat(onLeaving).isNotEmpty();

        leaves.close();

        node.api.awaitAllSucceeded(jobIds, Duration.ofSeconds(40));
        for (String jobId : jobIds) {
            JsonNode job = node.api.get("/api/v1/jobs/" + jobId).body();
            assertThat(job.path("worker").asText()).isEqualTo(stays.workerId());
            assertThat(runs.stream().filter(r -> r.jobId().equals(jobId) && r.succeeded()))
                    .as("successful runs of " + jobId)
                    .hasSize(1);
            if (onLeaving.contains(jobId)) {
                assertThat(job.path("attempt").asInt()).isEqualTo(2);
                List<String> types = node.api.eventTypes(jobId);
                assertThat(types).contains("JobTimedOut", "JobRetryScheduled");
                // the history says why the attempt was given up: its worker left
                assertThat(node.api.timedOutReasons(jobId))
                        .containsExactly("its worker " + leavingId + " deregistered while running it");
            } else {
                assertThat(job.path("attempt").asInt()).isEqualTo(1);
            }
        }
        assertThat(node.api.get("/api/v1/workers").body().path("items")).hasSize(1);
    }

    @Test
    void a_worker_an_admin_takes_out_stops_its_run_and_stays_out_its_run_timed_out_in_the_admins_name()
            throws Exception {
        String key = node.api.newKey("taken-worker", "default", "WORKER");
        try (WorkerNode taken = WorkerNode.start(
                "taken",
                node.api.port,
                "taken-app",
                runs,
                Map.of("ax.worker.api-key", key, "ax.worker.shutdown-grace-ms", "0"))) {
            String jobId = node.api.submit("{\"jobType\":\"sleep\",\"executorApp\":\"taken-app\","
                    + "\"params\":{\"ms\":60000},\"maxRetries\":0,\"timeoutMs\":120000}");
            node.api.awaitStatus(jobId, "RUNNING");
            String takenId = taken.workerId();

            assertThat(WorkerRemoteIT.deregister(node, takenId)).isEqualTo(204);

            node.api.awaitStatus(jobId, "TIMED_OUT");
            assertThat(node.api.timedOutReasons(jobId))
                    .containsExactly("its worker " + takenId + " was removed by key:bootstrap-admin while running it");
            JsonNode timedOut = null;
            for (JsonNode e :
                    node.api.get("/api/v1/jobs/" + jobId + "/history").body().path("events")) {
                if (e.path("type").asText().equals("JobTimedOut")) timedOut = e;
            }
            assertThat(timedOut.toString()).contains("\"actor\":\"key:bootstrap-admin\"");

            // the worker hears it was taken out at its next heartbeat: its run stops, and it does not come back
            // under a new id (which undid the removal within a heartbeat)
            Await.until(Duration.ofSeconds(10), taken::removed, () -> "the worker never heard it was taken out");
            Await.until(
                    Duration.ofSeconds(5),
                    () -> runs.stream().anyMatch(r -> r.jobId().equals(jobId) && !r.succeeded()),
                    () -> "its run goes on: " + runs);
            Thread.sleep(1_500);
            assertThat(taken.workerId()).isNull();
            assertThat(node.api.get("/api/v1/workers").body().findValuesAsText("app"))
                    .doesNotContain("taken-app");
            Api.Response heartbeat =
                    node.api.as(key).post("/api/v1/workers/" + takenId + "/heartbeat", "{\"inFlight\":0}");
            assertThat(heartbeat.status()).isEqualTo(410);
            assertThat(heartbeat.text("detail"))
                    .contains("worker " + takenId + " was taken out at ")
                    .contains("removed by key:bootstrap-admin")
                    .contains("until its service restarts");
            assertThat(node.api
                            .as(node.api.newKey("other-worker", "default", "WORKER"))
                            .post("/api/v1/workers/" + takenId + "/heartbeat", "{}")
                            .status())
                    .as("another worker's key is not told")
                    .isEqualTo(403);
        }
    }

    @Test
    void revoking_a_workers_key_takes_the_worker_out_at_once_and_stops_its_run() throws Exception {
        Api.Response made = node.api.post(
                "/api/v1/admin/api-keys",
                "{\"name\":\"revoked-worker\",\"grants\":[{\"namespace\":\"default\",\"role\":\"WORKER\"}]}");
        assertThat(made.status()).isEqualTo(201);
        try (WorkerNode revoked = WorkerNode.start(
                "revoked",
                node.api.port,
                "revoked-app",
                runs,
                Map.of("ax.worker.api-key", made.text("key"), "ax.worker.shutdown-grace-ms", "0"))) {
            String workerId = revoked.workerId();
            String jobId = node.api.submit("{\"jobType\":\"sleep\",\"executorApp\":\"revoked-app\","
                    + "\"params\":{\"ms\":60000},\"maxRetries\":0,\"timeoutMs\":120000}");
            node.api.awaitStatus(jobId, "RUNNING");

            assertThat(node.api
                            .delete("/api/v1/admin/api-keys/" + made.text("id"))
                            .status())
                    .isEqualTo(204);

            assertThat(node.api.get("/api/v1/workers").body().findValuesAsText("workerId"))
                    .as("taken out with the revocation, not after its missed heartbeats")
                    .doesNotContain(workerId);
            node.api.awaitStatus(jobId, "TIMED_OUT");
            assertThat(node.api.timedOutReasons(jobId))
                    .containsExactly("its worker " + workerId + " was removed while running it: its API key"
                            + " key:revoked-worker was revoked by key:bootstrap-admin");
            // told at once to stop the run the scheduler gave up
            Await.until(
                    Duration.ofSeconds(5),
                    () -> runs.stream().anyMatch(r -> r.jobId().equals(jobId) && !r.succeeded()),
                    () -> "its run goes on: " + runs);
            // and, refused at its next heartbeat (401), it drops its registration
            Await.until(
                    Duration.ofSeconds(5),
                    () -> revoked.workerId() == null,
                    () -> "still registered as " + revoked.workerId());
        }
    }

    @Test
    void a_workers_key_that_expires_takes_the_worker_out_and_names_the_expiry() throws Exception {
        java.time.Instant expires = java.time.Instant.now().plusSeconds(4);
        Api.Response made = node.api.post(
                "/api/v1/admin/api-keys",
                "{\"name\":\"expiring-worker\",\"grants\":[{\"namespace\":\"default\",\"role\":\"WORKER\"}],"
                        + "\"expiresAt\":\"" + expires + "\"}");
        assertThat(made.status()).as(made.body().toString()).isEqualTo(201);
        try (WorkerNode expiring = WorkerNode.start(
                "expiring",
                node.api.port,
                "expiring-app",
                runs,
                Map.of("ax.worker.api-key", made.text("key"), "ax.worker.shutdown-grace-ms", "0"))) {
            String workerId = expiring.workerId();
            String jobId = node.api.submit("{\"jobType\":\"sleep\",\"executorApp\":\"expiring-app\","
                    + "\"params\":{\"ms\":60000},\"maxRetries\":0,\"timeoutMs\":120000}");
            node.api.awaitStatus(jobId, "RUNNING");
            node.api.awaitStatus(jobId, "TIMED_OUT");
            assertThat(node.api.timedOutReasons(jobId))
                    .singleElement()
                    .asString()
                    .startsWith("its worker " + workerId + " was removed while running it: its API key"
                            + " key:expiring-worker expired at ");
            Await.until(
                    Duration.ofSeconds(5),
                    () -> runs.stream().anyMatch(r -> r.jobId().equals(jobId) && !r.succeeded()),
                    () -> "its run goes on: " + runs);
        }
    }

    @Test
    void the_event_store_reads_an_event_with_a_field_it_does_not_know() {
        // what lets a release add an optional field to an event while older nodes still run: they read it, ignored
        Serializer events = node.context.getBean("eventSerializer", Serializer.class);
        JobTimedOut read = events.deserialize(new SimpleSerializedObject<>(
                "{\"jobId\":\"j-1\",\"attempt\":2,\"phase\":\"RUN\",\"reason\":\"gone\",\"later\":{\"x\":1}}"
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8),
                byte[].class,
                JobTimedOut.class.getName(),
                null));
        assertThat(read).isEqualTo(new JobTimedOut("j-1", 2, TimeoutPhase.RUN, "gone"));
        JobTimedOut older = events.deserialize(new SimpleSerializedObject<>(
                "{\"jobId\":\"j-1\",\"attempt\":2,\"phase\":\"RUN\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8),
                byte[].class,
                JobTimedOut.class.getName(),
                null));
        assertThat(older).isEqualTo(new JobTimedOut("j-1", 2, TimeoutPhase.RUN, null));
    }
}
