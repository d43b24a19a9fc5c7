package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;
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
            } else {
                assertThat(job.path("attempt").asInt()).isEqualTo(1);
            }
        }
        assertThat(node.api.get("/api/v1/workers").body().path("items")).hasSize(1);
    }
}
