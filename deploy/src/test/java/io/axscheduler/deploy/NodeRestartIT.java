package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A node killed mid-run and started again under its id: the attempts its killed process left RUNNING are failed at
 * once and retried by their policies (they waited for their run deadline before); a job on a node gone silent is
 * explained as {@code NODE_GONE}; and a second process started under a live node's id leaves that node's attempts
 * alone. The victim is a separate JVM, killed with SIGKILL. Not in CI's second pass: the start-up it tests reads two
 * rows, nothing a server version decides.
 */
class NodeRestartIT {

    /**
     * Attempts with a run deadline ten minutes away, on a node killed mid-run: when the node starts again under its
     * id, it fails them at once (naming the restart) and they are retried, instead of waiting out their deadline.
     */
    @Test
    void a_killed_node_started_again_fails_the_attempts_it_left_running_and_they_are_retried() throws Exception {
        String db = TestDatabase.freshDatabase("crash_restart");
        int port = NodeCrashIT.freePort();
        Process victim = NodeCrashIT.startVictim(db, port);
        try {
            Api victimApi = new Api(port);
            Await.until(
                    Duration.ofSeconds(120),
                    () -> NodeCrashIT.isUp(victimApi),
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
        // a short grace: the first node's stop would otherwise wait 10 s for the sleeping job
        Map<String, String> quickStop = Map.of("ax.scheduler.execution.shutdown-grace-ms", "500");
        try (Node first = Node.start(db, "twin", quickStop)) {
            String job = first.api.submit(
                    "{\"jobType\":\"sleep\",\"params\":{\"ms\":30000},\"timeoutMs\":600000,\"maxRetries\":1}");
            first.api.awaitStatus(job, "RUNNING");
            try (Node second = Node.start(db, "twin", quickStop)) {
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
    /**
     * A node stopping gracefully lets its running attempts finish for the shutdown grace; a cancel decided meanwhile
     * (here on another node) still reaches the handler, which stops, and the node's stop does not wait out the job.
     */
    @Test
    void a_cancel_during_a_nodes_shutdown_grace_stops_the_running_handler() throws Exception {
        String db = TestDatabase.freshDatabase("cancel_in_grace");
        Node other = Node.start(db, "grace-other", Map.of("ax.scheduler.scan.enabled", "false"));
        try {
            Node stopping = Node.start(db, "grace-runner", Map.of("ax.scheduler.execution.shutdown-grace-ms", "30000"));
            String job = stopping.api.submit("{\"jobType\":\"sleep\",\"params\":{\"ms\":25000},\"timeoutMs\":600000}");
            stopping.api.awaitStatus(job, "RUNNING");
            long closeStarted = System.nanoTime();
            Thread closing = new Thread(stopping::close, "close-grace-runner");
            closing.start();
            Thread.sleep(1_500); // the context is closing: scheduled tasks are cancelled, the grace has begun
            assertThat(closing.isAlive())
                    .as("the node waits for its running attempt")
                    .isTrue();
            assertThat(other.api
                            .post("/api/v1/jobs/" + job + "/cancel", "{\"reason\":\"doing damage\"}")
                            .status())
                    .isEqualTo(200);
            closing.join(60_000);
            long closedAfterMs = (System.nanoTime() - closeStarted) / 1_000_000;
            assertThat(closedAfterMs)
                    .as("the handler was told of the cancel and stopped, instead of sleeping its 25 s out")
                    .isLessThan(15_000);
            assertThat(other.api
                            .get("/api/v1/jobs/" + job)
                            .body()
                            .path("status")
                            .asText())
                    .isEqualTo("CANCELED");
        } finally {
            other.close();
        }
    }
}
