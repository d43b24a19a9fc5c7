package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/** Two nodes on one database share the work (each runs a fair part of it) and never run a job twice. */
class TwoNodesIT {

    static final int JOBS = 10_000;

    @Test
    void two_nodes_share_10000_jobs_and_run_each_exactly_once() {
        String db = TestDatabase.freshDatabase("two_nodes");
        try (Node a = Node.start(db, "node-a");
                Node b = Node.start(db, "node-b")) {
            List<String> ids = new ArrayList<>();
            for (int batch = 0; batch < JOBS / 500; batch++) {
                Node via = batch % 2 == 0 ? a : b;
                StringBuilder body = new StringBuilder("{\"jobs\":[");
                for (int i = 0; i < 500; i++) body.append(i == 0 ? "" : ",").append("{\"jobType\":\"count\"}");
                var answer =
                        via.api.post("/api/v1/jobs/batch", body.append("]}").toString());
                assertThat(answer.status()).isEqualTo(200);
                answer.body()
                        .path("results")
                        .forEach(r -> ids.add(r.path("jobId").asText()));
            }
            assertThat(ids).hasSize(JOBS).doesNotHaveDuplicates();

            JdbcTemplate jdbc = a.jdbc();
            Await.until(
                    Duration.ofMinutes(4),
                    () -> jdbc.queryForObject(
                                    "SELECT COUNT(*) FROM job_queue WHERE status = 'SUCCEEDED'", Integer.class)
                            == JOBS,
                    () -> jdbc.queryForList("SELECT status, COUNT(*) n FROM job_queue GROUP BY status")
                            .toString());

            for (String id : ids) {
                AtomicInteger runs = CountingJobHandler.executions.get(id);
                assertThat(runs).as("executions of " + id).isNotNull();
                assertThat(runs.get()).as("executions of " + id).isEqualTo(1);
            }
            Integer succeededTwice = jdbc.queryForObject(
                    "SELECT COUNT(*) FROM (SELECT aggregateIdentifier FROM DomainEventEntry"
                            + " WHERE payloadType LIKE '%JobSucceeded' GROUP BY aggregateIdentifier HAVING COUNT(*) > 1) twice",
                    Integer.class);
            assertThat(succeededTwice).isZero();
            Integer claimedTwice = jdbc.queryForObject(
                    "SELECT COUNT(*) FROM (SELECT aggregateIdentifier FROM DomainEventEntry"
                            + " WHERE payloadType LIKE '%JobClaimed' GROUP BY aggregateIdentifier HAVING COUNT(*) > 1) twice",
                    Integer.class);
            assertThat(claimedTwice).isZero();
            Map<String, Integer> split = new java.util.HashMap<>();
            jdbc.queryForList("SELECT node, COUNT(*) n FROM job_queue GROUP BY node")
                    .forEach(row -> split.put((String) row.get("node"), ((Number) row.get("n")).intValue()));
            assertThat(split).as("jobs run by each node").containsOnlyKeys("node-a", "node-b");
            assertThat(split.values())
                    .as("both nodes did work")
                    .allSatisfy(n -> assertThat(n).isGreaterThan(JOBS / 20));
        }
    }
}
