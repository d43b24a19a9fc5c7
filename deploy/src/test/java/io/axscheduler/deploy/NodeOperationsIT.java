package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Health that tells a half-dead node from a live one, and a shutdown that finishes or hands back its work. */
class NodeOperationsIT {

    @Test
    void health_goes_down_while_the_scanner_is_stuck_on_the_database_and_up_again_after() throws Exception {
        String db = TestDatabase.freshDatabase("health");
        try (Node node = Node.start(db, "node-a", Map.of("ax.scheduler.health.scan-stall-ms", "2000"))) {
            assertThat(node.api.get("/actuator/health").status()).isEqualTo(200);
            // instants to the millisecond, as everywhere in the API
            assertThat(node.api
                            .get("/actuator/health")
                            .body()
                            .at("/components/scanner/details/lastCompletedScan")
                            .asText())
                    .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
            try (Connection blocker = TestDatabase.connect(db)) {
                // the scan's SELECT … FOR UPDATE now waits on the table lock: the process lives, nothing is claimed
                blocker.createStatement().execute("LOCK TABLES job_queue WRITE");
                Await.until(
                        Duration.ofSeconds(15),
                        () -> node.api.get("/actuator/health").status() == 503,
                        () -> node.api.get("/actuator/health").body().toString());
                assertThat(node.api
                                .get("/actuator/health")
                                .body()
                                .path("components")
                                .path("scanner")
                                .path("status")
                                .asText())
                        .isEqualTo("DOWN");
                blocker.createStatement().execute("UNLOCK TABLES");
            }
            Await.until(
                    Duration.ofSeconds(15),
                    () -> node.api.get("/actuator/health").status() == 200,
                    () -> node.api.get("/actuator/health").body().toString());
        }
    }

    @Test
    void a_graceful_stop_lets_running_jobs_finish_and_leaves_nothing_claimed() {
        String db = TestDatabase.freshDatabase("shutdown");
        List<String> ids = new ArrayList<>();
        Node node = Node.start(db, "node-a");
        for (int i = 0; i < 5; i++) ids.add(node.api.submit("{\"jobType\":\"sleep\",\"params\":{\"ms\":1500}}"));
        Await.until(
                Duration.ofSeconds(20),
                () -> node.jdbc()
                                .queryForObject(
                                        "SELECT COUNT(*) FROM job_queue WHERE status = 'RUNNING'", Integer.class)
                        == 5,
                () -> node.jdbc()
                        .queryForList("SELECT status, COUNT(*) FROM job_queue GROUP BY status")
                        .toString());
        var jdbc = new org.springframework.jdbc.core.JdbcTemplate(
                new org.springframework.jdbc.datasource.DriverManagerDataSource(
                        db, TestDatabase.user(), TestDatabase.password()));

        node.close();

        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM job_queue WHERE status = 'SUCCEEDED'", Integer.class))
                .isEqualTo(5);
        assertThat(jdbc.queryForObject(
                        "SELECT COUNT(*) FROM job_queue WHERE status IN ('CLAIMED', 'RUNNING')", Integer.class))
                .isZero();
    }

    @Test
    void a_stopping_node_is_out_of_service_while_its_running_jobs_finish() throws Exception {
        String db = TestDatabase.freshDatabase("shutdown_drain");
        Node node = Node.start(db, "node-a", Map.of("ax.scheduler.execution.shutdown-grace-ms", "5000"));
        assertThat(node.api.get("/actuator/health/readiness").status()).isEqualTo(200);
        assertThat(node.api.get("/actuator/health/liveness").status()).isEqualTo(200);
        String jobId = node.api.submit("{\"jobType\":\"sleep\",\"params\":{\"ms\":60000}}");
        Await.until(
                Duration.ofSeconds(20),
                () -> "RUNNING".equals(node.api.get("/api/v1/jobs/" + jobId).text("status")),
                () -> node.api.get("/api/v1/jobs/" + jobId).body().toString());
        Thread stopping = new Thread(node::close);
        stopping.start();
        try {
            // within the grace the port still answers, and says the node takes no new traffic
            Await.until(
                    Duration.ofSeconds(4),
                    () -> node.api.get("/actuator/health/readiness").status() == 503,
                    () -> node.api.get("/actuator/health/readiness").body().toString());
            assertThat(node.api.get("/actuator/health/readiness").body().toString())
                    .contains("OUT_OF_SERVICE");
            assertThat(node.api.get("/actuator/health").status()).isEqualTo(503);
        } finally {
            stopping.join(60_000);
        }
    }

    @Test
    void a_stop_that_outlasts_the_grace_period_hands_running_jobs_back_for_a_retry() {
        String db = TestDatabase.freshDatabase("shutdown_grace");
        Node node = Node.start(db, "node-a", Map.of("ax.scheduler.execution.shutdown-grace-ms", "500"));
        String jobId =
                node.api.submit("{\"jobType\":\"sleep\",\"params\":{\"ms\":60000},\"backoff\":{\"delaysMs\":[100]}}");
        Await.until(
                Duration.ofSeconds(20),
                () -> "RUNNING".equals(node.api.get("/api/v1/jobs/" + jobId).text("status")),
                () -> node.api.get("/api/v1/jobs/" + jobId).body().toString());

        node.close();

        try (Node next = Node.start(db, "node-b")) {
            Await.until(
                    Duration.ofSeconds(30),
                    () -> "RUNNING".equals(next.api.get("/api/v1/jobs/" + jobId).text("status")),
                    () -> next.api.get("/api/v1/jobs/" + jobId).body().toString());
            var job = next.api.get("/api/v1/jobs/" + jobId).body();
            assertThat(job.path("attempt").asInt()).isEqualTo(2);
            assertThat(job.path("node").asText()).isEqualTo("node-b");
            assertThat(job.path("lastError").asText()).contains("node-a stopped");
        }
    }
}
