package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;

/**
 * A worker told of two nodes, and the one it speaks to stops while the worker runs a job: the outcome goes to the
 * other node, and the job ends once, on its first attempt, well before its run deadline.
 */
class WorkerNodeRestartIT {

    @Test
    void a_workers_outcome_reaches_another_node_when_its_node_stops() {
        String db = TestDatabase.freshDatabase("worker_node_restart");
        Map<String, String> fast = Map.of(
                "ax.scheduler.workers.heartbeat-interval-ms", "500", "ax.scheduler.workers.expiry-check-ms", "300");
        Queue<WorkerNode.Run> runs = new ConcurrentLinkedQueue<>();
        try (Node stays = Node.start(db, "node-stays", fast)) {
            Node stops = Node.start(db, "node-stops", fast);
            try (stops;
                    WorkerNode worker = WorkerNode.start(
                            "w",
                            stops.api.port,
                            "demo",
                            runs,
                            // the stopping node first: the worker registers and speaks there until it is gone
                            Map.of(
                                    "ax.worker.scheduler-url",
                                    "http://127.0.0.1:" + stops.api.port + ",http://127.0.0.1:" + stays.api.port))) {
                String jobId = stays.api.submit("{\"jobType\":\"sleep\",\"executorApp\":\"demo\","
                        + "\"params\":{\"ms\":3000},\"timeoutMs\":60000,\"maxRetries\":2}");
                stays.api.awaitStatus(jobId, "RUNNING");
                stops.close();

                // before, the worker tried the stopped node five times in three seconds and gave the outcome up:
                // the job waited for its run deadline (a minute) and ran again
                Await.until(
                        Duration.ofSeconds(20),
                        () -> stays.api
                                .get("/api/v1/jobs/" + jobId)
                                .body()
                                .path("status")
                                .asText()
                                .equals("SUCCEEDED"),
                        () -> stays.api.get("/api/v1/jobs/" + jobId).body().toString());
                JsonNode job = stays.api.get("/api/v1/jobs/" + jobId).body();
                assertThat(job.path("attempt").asInt()).as(job.toString()).isEqualTo(1);
                List<String> types = stays.api.eventTypes(jobId);
                assertThat(types).doesNotContain("JobTimedOut", "JobFailed");
                assertThat(runs).hasSize(1);

                // and the worker's heartbeats go on to the node that stayed: it is still listed as alive
                String workerId = worker.workerId();
                Await.until(
                        Duration.ofSeconds(10),
                        () -> stays.api.get("/api/v1/workers").body().toString().contains(workerId),
                        () -> stays.api.get("/api/v1/workers").body().toString());
            }
        }
    }
}
