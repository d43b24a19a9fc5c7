package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * One node is killed with SIGKILL while it has jobs claimed and running; the other node finishes all of them. The
 * victim is a separate JVM, so the kill is real: no shutdown hook, no release of anything.
 */
class NodeCrashIT {

    static final int JOBS = 300;

    @Test
    void when_a_node_is_killed_mid_run_the_other_node_finishes_every_job_exactly_once() throws Exception {
        String db = TestDatabase.freshDatabase("crash");
        int port = freePort();
        Process victim = startVictim(db, port);
        try {
            Api victimApi = new Api(port);
            Await.until(
                    Duration.ofSeconds(120),
                    () -> isUp(victimApi),
                    () -> "victim node did not come up; see target/victim-node.log");

            StringBuilder body = new StringBuilder("{\"jobs\":[");
            for (int i = 0; i < JOBS; i++) {
                body.append(i == 0 ? "" : ",")
                        .append(
                                "{\"jobType\":\"sleep\",\"params\":{\"ms\":400},\"timeoutMs\":3000,\"backoff\":{\"delaysMs\":[100]}}");
            }
            var answer = victimApi.post("/api/v1/jobs/batch", body.append("]}").toString());
            assertThat(answer.status()).isEqualTo(200);
            List<String> ids = new ArrayList<>();
            answer.body().path("results").forEach(r -> ids.add(r.path("jobId").asText()));

            JdbcTemplate jdbc = new JdbcTemplate(new org.springframework.jdbc.datasource.DriverManagerDataSource(
                    db, TestDatabase.user(), TestDatabase.password()));
            // kill it at a moment when it has work both done and in flight
            Await.until(
                    Duration.ofSeconds(60),
                    () -> jdbc.queryForObject(
                                            "SELECT COUNT(*) FROM job_queue"
                                                    + " WHERE status IN ('RUNNING', 'CLAIMED')",
                                            Integer.class)
                                    > 0
                            && jdbc.queryForObject(
                                            "SELECT COUNT(*) FROM job_queue WHERE status = 'SUCCEEDED'", Integer.class)
                                    >= 30,
                    () -> jdbc.queryForList("SELECT status, COUNT(*) n FROM job_queue GROUP BY status")
                            .toString());
            victim.destroyForcibly().waitFor();

            try (Node survivor = Node.start(db, "survivor")) {
                Await.until(
                        Duration.ofMinutes(3),
                        () -> jdbc.queryForObject(
                                        "SELECT COUNT(*) FROM job_queue WHERE status = 'SUCCEEDED'", Integer.class)
                                == JOBS,
                        () -> jdbc.queryForList("SELECT status, node, COUNT(*) n FROM job_queue GROUP BY status, node")
                                .toString());
            }

            Map<String, Object> counts = jdbc.queryForMap("SELECT"
                    + " SUM(payloadType LIKE '%JobSucceeded') succeeded,"
                    + " COUNT(DISTINCT CASE WHEN payloadType LIKE '%JobSucceeded' THEN aggregateIdentifier END) jobs,"
                    + " SUM(payloadType LIKE '%JobTimedOut') timedOut FROM DomainEventEntry");
            assertThat(((Number) counts.get("succeeded")).intValue()).isEqualTo(JOBS);
            assertThat(((Number) counts.get("jobs")).intValue()).isEqualTo(JOBS);
            assertThat(((Number) counts.get("timedOut")).intValue())
                    .as("attempts the survivor timed out")
                    .isPositive();
            assertThat(ids).hasSize(JOBS);
        } finally {
            victim.destroyForcibly();
        }
    }

    /**
     * Attempts with a run deadline ten minutes away, on a node killed mid-run: when the node starts again under its
     * id, it fails them at once (naming the restart) and they are retried, instead of waiting out their deadline.
     */
    @Test
    void a_killed_node_started_again_fails_the_attempts_it_left_running_and_they_are_retried() throws Exception {
        String db = TestDatabase.freshDatabase("crash_restart");
        int port = freePort();
        Process victim = startVictim(db, port);
        try {
            Api victimApi = new Api(port);
            Await.until(
                    Duration.ofSeconds(120),
                    () -> isUp(victimApi),
                    () -> "victim node did not come up; see target/victim-node.log");
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                ids.add(victimApi.submit("{\"jobType\":\"sleep\",\"params\":{\"ms\":4000},\"timeoutMs\":600000,"
                        + "\"maxRetries\":1,\"backoff\":{\"delaysMs\":[100]}}"));
            }
            JdbcTemplate jdbc = new JdbcTemplate(new org.springframework.jdbc.datasource.DriverManagerDataSource(
                    db, TestDatabase.user(), TestDatabase.password()));
            Await.until(
                    Duration.ofSeconds(60),
                    () -> jdbc.queryForObject(
                                    "SELECT COUNT(*) FROM job_queue WHERE status = 'RUNNING' AND node = 'victim'",
                                    Integer.class)
                            == 4,
                    () -> jdbc.queryForList("SELECT status, node, COUNT(*) n FROM job_queue GROUP BY status, node")
                            .toString());
            victim.destroyForcibly().waitFor();

            try (Node witness = Node.start(db, "witness")) {
                // why it does not end: its node is gone
                Await.until(
                        Duration.ofSeconds(30),
                        () -> witness.api
                                .get("/api/v1/jobs/" + ids.get(0) + "/explain")
                                .body()
                                .toString()
                                .contains("\"NODE_GONE\""),
                        () -> witness.api
                                .get("/api/v1/jobs/" + ids.get(0) + "/explain")
                                .body()
                                .toString());
                Api.Response explained = witness.api.get("/api/v1/jobs/" + ids.get(0) + "/explain");
                assertThat(explained.body().path("reasons").toString())
                        .contains("RUNNING", "node victim no longer reports", "\"timeoutAt\"");
            }
            try (Node again = Node.start(db, "victim")) {
                Await.until(
                        Duration.ofSeconds(60),
                        () -> jdbc.queryForObject(
                                        "SELECT COUNT(*) FROM job_queue WHERE status = 'SUCCEEDED'", Integer.class)
                                == 4,
                        () -> jdbc.queryForList("SELECT status, node, COUNT(*) n FROM job_queue GROUP BY status, node")
                                .toString());
                for (String id : ids) {
                    var history = again.api
                            .get("/api/v1/jobs/" + id + "/history")
                            .body()
                            .toString();
                    assertThat(history)
                            .as("job " + id)
                            .contains("victim restarted before the attempt finished")
                            .doesNotContain("JobTimedOut");
                }
            }
        } finally {
            victim.destroyForcibly();
        }
    }

    /** Two processes given one node id (a mistake): the second to start must not take the first's attempts for lost. */
    @Test
    void a_second_process_under_a_live_nodes_id_leaves_that_nodes_running_attempts_alone() {
        String db = TestDatabase.freshDatabase("crash_same_id");
        try (Node first = Node.start(db, "twin")) {
            String job = first.api.submit(
                    "{\"jobType\":\"sleep\",\"params\":{\"ms\":30000},\"timeoutMs\":600000,\"maxRetries\":1}");
            first.api.awaitStatus(job, "RUNNING");
            try (Node second = Node.start(db, "twin")) {
                JsonNode now = second.api.get("/api/v1/jobs/" + job).body();
                assertThat(now.path("status").asText()).isEqualTo("RUNNING");
                assertThat(now.path("attempt").asInt()).as(now.toString()).isEqualTo(1);
                assertThat(second.api
                                .get("/api/v1/jobs/" + job + "/history")
                                .body()
                                .toString())
                        .doesNotContain("JobFailed");
            }
        }
    }

    private static Process startVictim(String db, int port) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(
                java,
                "-Xmx512m",
                "-Daxon.update-check.disabled=true",
                "-cp",
                System.getProperty("java.class.path"),
                AxSchedulerApplication.class.getName(),
                "--spring.datasource.url=" + db,
                "--spring.datasource.username=" + TestDatabase.user(),
                "--spring.datasource.password=" + TestDatabase.password(),
                "--spring.datasource.hikari.maximum-pool-size=10",
                "--server.port=" + port,
                "--ax.node.id=victim",
                "--ax.bootstrap.admin-key=" + Api.ADMIN_KEY,
                "--ax.data-dir=target/node-data",
                "--ax.scheduler.scan.lease-ms=3000"));
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(new File("target/victim-node.log"))
                .start();
    }

    private static boolean isUp(Api api) {
        try {
            return api.get("/actuator/health").status() == 200;
        } catch (RuntimeException notYet) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
