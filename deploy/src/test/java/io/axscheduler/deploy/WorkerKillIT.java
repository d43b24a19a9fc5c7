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
import org.junit.jupiter.api.Test;

/**
 * A worker in a JVM of its own is killed with SIGKILL while it runs jobs: no deregistration, no callbacks. Its
 * heartbeats stop, the node removes it after three missed intervals and times its attempts out, and the retries
 * run on the worker that stayed — every job succeeds exactly once.
 */
class WorkerKillIT {

    @Test
    void jobs_of_a_worker_killed_mid_run_time_out_when_its_heartbeats_stop_and_succeed_on_the_other_worker()
            throws Exception {
        Queue<WorkerNode.Run> runs = new ConcurrentLinkedQueue<>();
        try (Node node = Node.start(
                        TestDatabase.freshDatabase("worker_kill"),
                        "node-k",
                        Map.of(
                                "ax.scheduler.workers.heartbeat-interval-ms", "500",
                                // removed after 3 s: explain has two seconds to say the worker went quiet
                                "ax.scheduler.workers.missed-heartbeats", "6",
                                "ax.scheduler.workers.expiry-check-ms", "300"));
                WorkerNode stays = WorkerNode.start("stays", node.api.port, "demo", runs, Map.of())) {
            Process victim =
                    WorkerNode.startInOwnJvm(node.api.port, "demo", java.nio.file.Path.of("target/victim-worker.log"));
            try {
                node.api.awaitWorkers(2, Duration.ofSeconds(60));
                List<String> jobIds = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    jobIds.add(
                            node.api.submit(
                                    "{\"jobType\":\"sleep\",\"executorApp\":\"demo\",\"routeStrategy\":\"ROUND_ROBIN\","
                                            + "\"params\":{\"ms\":3000},\"maxRetries\":3,\"backoff\":{\"delaysMs\":[200]},\"timeoutMs\":120000}"));
                }
                Await.until(
                        Duration.ofSeconds(20),
                        () -> jobIds.stream().allMatch(id -> "RUNNING".equals(status(node, id))),
                        () -> jobIds.stream()
                                .map(id -> status(node, id))
                                .toList()
                                .toString());
                Set<String> onVictim = jobIds.stream()
                        .filter(id -> !stays.workerId()
                                .equals(node.api.get("/api/v1/jobs/" + id).text("worker")))
                        .collect(Collectors.toSet());
                assertThat(onVictim).isNotEmpty();

                victim.destroyForcibly().waitFor();

                // while its attempts still show RUNNING there, explain says the worker went quiet
                String oneOnVictim = onVictim.iterator().next();
                Await.until(
                        Duration.ofSeconds(10),
                        () -> node.api
                                .get("/api/v1/jobs/" + oneOnVictim + "/explain")
                                .body()
                                .toString()
                                .contains("\"WORKER_SILENT\""),
                        () -> node.api
                                .get("/api/v1/jobs/" + oneOnVictim + "/explain")
                                .body()
                                .toString());

                node.api.awaitAllSucceeded(jobIds, Duration.ofSeconds(40));
                for (String jobId : jobIds) {
                    JsonNode job = node.api.get("/api/v1/jobs/" + jobId).body();
                    List<String> types = node.api.eventTypes(jobId);
                    assertThat(job.path("worker").asText()).isEqualTo(stays.workerId());
                    assertThat(types.stream().filter("JobSucceeded"::equals)).hasSize(1);
                    assertThat(runs.stream().filter(r -> r.jobId().equals(jobId) && r.succeeded()))
                            .hasSize(1);
                    if (onVictim.contains(jobId)) {
                        assertThat(job.path("attempt").asInt()).isEqualTo(2);
                        assertThat(types).contains("JobTimedOut");
                        assertThat(node.api.timedOutReasons(jobId))
                                .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                                .matches("its worker \\S+ sent no heartbeat for 3 seconds and was removed");
                    } else {
                        assertThat(job.path("attempt").asInt()).isEqualTo(1);
                    }
                }
                assertThat(node.api.get("/api/v1/workers").body().path("items")).hasSize(1);
            } finally {
                victim.destroyForcibly();
            }
        }
    }

    private static String status(Node node, String jobId) {
        return node.api.get("/api/v1/jobs/" + jobId).text("status");
    }
}
