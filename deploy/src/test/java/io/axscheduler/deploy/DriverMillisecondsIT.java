package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MySQL Connector/J sees MariaDB 10.x as MySQL 5.5 and truncates the fraction of Timestamp parameters: a job due at
 * 10:00:00.987 would be stored as 10:00:00 and run early. Both drivers ship; through either URL a due time keeps its
 * milliseconds.
 */
class DriverMillisecondsIT {

    @ParameterizedTest(name = "jdbc:{0}://")
    @ValueSource(strings = {"mariadb", "mysql"})
    void a_due_time_keeps_its_milliseconds_through_either_driver(String scheme) {
        String db = TestDatabase.withScheme(TestDatabase.freshDatabase("millis_" + scheme), scheme);
        try (Node node = Node.start(db, "node-" + scheme, Map.of("ax.scheduler.scan.enabled", "false"))) {
            Instant due = Instant.now()
                    .plus(1, ChronoUnit.HOURS)
                    .truncatedTo(ChronoUnit.SECONDS)
                    .plusMillis(987);

            String jobId = node.api.submit("{\"jobType\":\"noop\",\"runAt\":\"" + due + "\"}");

            assertThat(node.api.get("/api/v1/jobs/" + jobId).text("runAt")).isEqualTo(due.toString());
            assertThat(node.jdbc().queryForObject("SELECT run_at FROM job_queue WHERE job_id = ?", Long.class, jobId))
                    .isEqualTo(due.toEpochMilli());
            assertThat(node.api
                            .get("/api/v1/jobs/" + jobId + "/history")
                            .body()
                            .path("events")
                            .get(0)
                            .path("payload")
                            .path("runAt")
                            .asText())
                    .isEqualTo(due.toString());
            assertThat(node.jdbc().queryForObject("SELECT @@version", String.class))
                    .containsIgnoringCase("mariadb");
        }
    }
}
