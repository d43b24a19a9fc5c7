package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.axscheduler.scheduler.claim.ClaimDueJobs;
import io.axscheduler.scheduler.claim.ScanDueJobs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What wakes the claim scan. A job falling due wakes it; a freed slot or a written batch of outcomes wakes it only
 * when that is what held the last pass back. Before, each of the three woke it, and a job arriving alone cost three
 * claim transactions, two of them finding nothing. A backlog larger than the pools must still drain pass after pass,
 * not one pool's worth per tick.
 */
class ScanWakeIT {

    static Node node;

    @BeforeAll
    static void start() {
        node = Node.start(
                TestDatabase.freshDatabase("scan_wake"),
                "node-a",
                Map.of("ax.scheduler.execution.threads-per-type", "2"));
    }

    @AfterAll
    static void stop() {
        node.close();
    }

    @Test
    void a_job_falling_due_alone_costs_one_claim_pass_not_one_more_per_slot_freed_and_outcome_written() {
        ClaimDueJobs claims = node.bean(ClaimDueJobs.class);
        long before = claims.transactions();
        long startNanos = System.nanoTime();
        List<String> jobs = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            jobs.add(node.api.submit("{\"jobType\":\"noop\",\"delayMs\":" + (1000 + 150 * i) + "}"));
        }
        awaitSucceeded(jobs, Duration.ofSeconds(20));

        long passes = claims.transactions() - before;
        long ticks = Duration.ofNanos(System.nanoTime() - startNanos).toMillis() / 800 + 1;
        // one pass per job at its due time, plus the regular ticks; three per job before
        assertThat(passes).as("claim passes for 20 jobs over %d ticks", ticks).isLessThanOrEqualTo(20 + ticks + 5);
    }

    @Test
    void a_backlog_larger_than_the_pool_drains_pass_after_pass_not_tick_by_tick() {
        ScanDueJobs scan = node.bean(ScanDueJobs.class);
        scan.pauseScanning();
        List<String> jobs = new ArrayList<>();
        try {
            for (int batch = 0; batch < 2; batch++) {
                StringJoiner body = new StringJoiner(",", "{\"jobs\":[", "]}");
                for (int i = 0; i < 100; i++) body.add("{\"jobType\":\"noop\"}");
                node.api
                        .post("/api/v1/jobs/batch", body.toString())
                        .body()
                        .path("results")
                        .forEach(r -> jobs.add(r.path("jobId").asText()));
            }
        } finally {
            scan.resumeScanning();
        }
        assertThat(jobs).hasSize(200);
        long startNanos = System.nanoTime();

        awaitSucceeded(jobs, Duration.ofSeconds(30));

        // 2 threads and up to 16 queued behind them: about a dozen passes, under 2 s here; one pass per 0.8–1.2 s tick
        // took 10 s and more
        Duration drained = Duration.ofNanos(System.nanoTime() - startNanos);
        assertThat(drained).as("200 jobs drained in %s", drained).isLessThan(Duration.ofSeconds(6));
    }

    private static void awaitSucceeded(List<String> jobs, Duration timeout) {
        String in = String.join("','", jobs);
        Await.until(
                timeout,
                () -> node.jdbc()
                                .queryForObject(
                                        "SELECT COUNT(*) FROM job_queue WHERE status = 'SUCCEEDED' AND job_id IN ('"
                                                + in + "')",
                                        Integer.class)
                        == jobs.size(),
                () -> node.jdbc()
                        .queryForList("SELECT status, COUNT(*) n FROM job_queue WHERE job_id IN ('" + in
                                + "') GROUP BY status")
                        .toString());
    }
}
