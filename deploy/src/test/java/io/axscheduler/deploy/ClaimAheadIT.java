package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A job this node's pools run is claimed and started up to the claim look-ahead before it is due, and its handler is
 * called at the due time, never before; a job for a remote worker is claimed only when due. The look-ahead is large
 * here (400 ms) so that "ahead" stands out from a busy machine's scheduling noise.
 */
class ClaimAheadIT {

    static final long AHEAD_MS = 400;
    static Node node;

    @BeforeAll
    static void start() {
        node = Node.start(
                TestDatabase.freshDatabase("claim_ahead"),
                "node-a",
                Map.of("ax.scheduler.scan.claim-ahead-ms", String.valueOf(AHEAD_MS)));
    }

    @AfterAll
    static void stop() {
        if (node != null) node.close();
    }

    /** The time (epoch ms) Axon stamped on the job's event of that type. */
    private static long eventMs(String jobId, String payloadType) {
        String at = node.jdbc()
                .queryForObject(
                        "SELECT timeStamp FROM DomainEventEntry WHERE aggregateIdentifier = ?"
                                + " AND payloadType LIKE ?",
                        String.class,
                        jobId,
                        "%." + payloadType);
        return Instant.parse(at).toEpochMilli();
    }

    @Test
    void a_job_for_this_nodes_pool_is_started_ahead_and_its_handler_runs_at_the_due_time() {
        // the first authenticated calls of a fresh node are slow (key lookup, filter chain warm-up); the due time
        // must not be eaten by them
        for (int i = 0; i < 3; i++) node.api.get("/api/v1/jobs?size=1");
        Instant due = Instant.now().plusMillis(1_500).truncatedTo(ChronoUnit.MILLIS);
        String jobId = node.api.submit("{\"jobType\":\"count\",\"runAt\":\"" + due + "\"}");

        Await.until(
                Duration.ofSeconds(10),
                () -> "SUCCEEDED".equals(node.api.get("/api/v1/jobs/" + jobId).text("status")),
                () -> node.api.get("/api/v1/jobs/" + jobId).body().toString());

        long startedEvent = eventMs(jobId, "JobStarted");
        long handlerStart = CountingJobHandler.startedAtMs.get(jobId);
        assertThat(handlerStart).as("handler start vs due").isGreaterThanOrEqualTo(due.toEpochMilli());
        assertThat(startedEvent)
                .as("JobStarted vs due")
                .isBetween(due.toEpochMilli() - AHEAD_MS, due.toEpochMilli() - 1);
        assertThat(CountingJobHandler.executions.get(jobId).get()).isEqualTo(1);
    }

    @Test
    void a_job_due_later_than_the_look_ahead_waits_in_the_queue() {
        Instant due = Instant.now().plusMillis(3_000).truncatedTo(ChronoUnit.MILLIS);
        String jobId = node.api.submit("{\"jobType\":\"count\",\"runAt\":\"" + due + "\"}");

        // a second past submission, still 2 s before it is due: not claimed
        Await.until(Duration.ofSeconds(10), () -> Instant.now().isAfter(due.minusMillis(2_000)), () -> "clock");
        assertThat(node.api.get("/api/v1/jobs/" + jobId).text("status")).isEqualTo("WAITING");
        Await.until(
                Duration.ofSeconds(10),
                () -> "SUCCEEDED".equals(node.api.get("/api/v1/jobs/" + jobId).text("status")),
                () -> node.api.get("/api/v1/jobs/" + jobId).body().toString());
        assertThat(CountingJobHandler.startedAtMs.get(jobId)).isGreaterThanOrEqualTo(due.toEpochMilli());
    }
}
