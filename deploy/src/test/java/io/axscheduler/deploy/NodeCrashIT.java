package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

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
            // kill it at a moment when it has work both done and running: a moment with claims alone (CI met one)
            // leaves no run for the survivor to time out, which the reasons below are about
            Await.until(
                    Duration.ofSeconds(60),
                    () -> jdbc.queryForObject("SELECT COUNT(*) FROM job_queue WHERE status = 'RUNNING'", Integer.class)
                                    > 0
                            && jdbc.queryForObject(
                                            "SELECT COUNT(*) FROM job_queue WHERE status = 'SUCCEEDED'", Integer.class)
                                    >= 30,
                    () -> jdbc.queryForList("SELECT status, COUNT(*) n FROM job_queue GROUP BY status")
                            .toString());
            victim.destroyForcibly().waitFor();
            // a deadline judged before the victim counts as silent (ax.observe node-silent: three reports of 2 s)
            // says, truly, that the run outlasted its timeoutMs; the survivor starts once the victim is silent, so
            // every run it times out is the victim's silence (a warm JVM started the survivor within that, at times)
            Thread.sleep(6_500);

            try (Node survivor = Node.start(db, "survivor")) {
                Await.until(
                        Duration.ofMinutes(3),
                        () -> jdbc.queryForObject(
                                        "SELECT COUNT(*) FROM job_queue WHERE status = 'SUCCEEDED'", Integer.class)
                                == JOBS,
                        () -> jdbc.queryForList("SELECT status, node, COUNT(*) n FROM job_queue GROUP BY status, node")
                                .toString());
                // each run timed out says why: the node running it stopped reporting (a lapsed claim needs no reason)
                List<String> runTimeouts = new ArrayList<>();
                for (String jobId : jdbc.queryForList(
                        "SELECT DISTINCT aggregateIdentifier FROM DomainEventEntry WHERE payloadType LIKE '%JobTimedOut'",
                        String.class)) {
                    survivor.api
                            .get("/api/v1/jobs/" + jobId + "/history")
                            .body()
                            .path("events")
                            .forEach(e -> {
                                if (e.path("type").asText().equals("JobTimedOut")
                                        && e.at("/payload/phase").asText().equals("RUN"))
                                    runTimeouts.add(e.at("/payload/reason").asText(""));
                            });
                }
                assertThat(runTimeouts)
                        .isNotEmpty()
                        .allSatisfy(reason -> assertThat(reason)
                                .matches("its node victim has not reported since \\S+ \\(stopped, or cut off from"
                                        + " the database\\) while running it"));
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

    static Process startVictim(String db, int port) throws IOException {
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

    static boolean isUp(Api api) {
        try {
            return api.get("/actuator/health").status() == 200;
        } catch (RuntimeException notYet) {
            return false;
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
