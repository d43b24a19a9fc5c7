package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.axscheduler.scheduler.claim.ScanDueJobs;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Operators cancelling and re-running jobs while the scanner claims them. The scan locks job_queue rows and then takes
 * each job's in-memory aggregate lock; a cancel or retry takes the aggregate lock and then, as it commits, updates the
 * job's row. Had the scan waited for the aggregate lock while holding the row, the two would wait for each other
 * until the database's lock-wait timeout (50 s), with the scanner stalled and the pool drained meanwhile.
 */
class OperatorConcurrencyIT {

    private static final Duration REQUEST_BOUND = Duration.ofSeconds(8);
    private static final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static Node node;

    @BeforeAll
    static void start() {
        node = Node.start(
                TestDatabase.freshDatabase("operator_concurrency"),
                "node-a",
                Map.of(
                        "ax.scheduler.scan.min-interval-ms", "10",
                        "ax.scheduler.scan.max-interval-ms", "30",
                        "spring.datasource.hikari.maximum-pool-size", "20"));
    }

    @AfterAll
    static void stop() {
        if (node != null) node.close();
    }

    @Test
    void parallel_cancel_and_retry_on_one_job_finish_in_seconds_without_stalling_the_scanner() throws Exception {
        String job = canceledJob();
        hammer(List.of(job), 24, Duration.ofSeconds(6));
    }

    @Test
    void parallel_cancel_and_retry_on_many_jobs_finish_in_seconds_without_stalling_the_scanner() throws Exception {
        List<String> jobs = new ArrayList<>();
        for (int i = 0; i < 20; i++) jobs.add(canceledJob());
        hammer(jobs, 24, Duration.ofSeconds(6));
    }

    /** A job that sleeps long when it runs, canceled before it was claimed: retry makes it claimable again. */
    private static String canceledJob() {
        String id = node.api.submit("{\"jobType\":\"sleep\",\"params\":{\"ms\":20},\"delayMs\":3600000}");
        assertThat(node.api.post("/api/v1/jobs/" + id + "/cancel", "{}").status())
                .isEqualTo(200);
        return id;
    }

    private static void hammer(List<String> jobs, int clients, Duration during) throws Exception {
        ScanDueJobs scanner = node.bean(ScanDueJobs.class);
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        AtomicLong requests = new AtomicLong();
        AtomicLong slowest = new AtomicLong();
        AtomicLong longestScanGap = new AtomicLong();
        AtomicBoolean running = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(clients + 1);
        try {
            Future<?> watch = pool.submit(() -> {
                while (running.get()) {
                    long gap = Duration.between(scanner.lastCompletedScan(), Instant.now())
                            .toMillis();
                    longestScanGap.accumulateAndGet(gap, Math::max);
                    sleep(20);
                }
            });
            long end = System.nanoTime() + during.toNanos();
            List<Future<?>> hammers = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                String action = c % 2 == 0 ? "retry" : "cancel";
                hammers.add(pool.submit(() -> {
                    while (System.nanoTime() < end) {
                        String job = jobs.get(ThreadLocalRandom.current().nextInt(jobs.size()));
                        long started = System.nanoTime();
                        String outcome = post("/api/v1/jobs/" + job + "/" + action);
                        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
                        requests.incrementAndGet();
                        slowest.accumulateAndGet(tookMs, Math::max);
                        if (!outcome.equals("200") && !outcome.equals("409"))
                            failures.add(action + " " + job + " answered " + outcome + " after " + tookMs + " ms");
                    }
                }));
            }
            for (Future<?> f : hammers) f.get(during.toSeconds() + 60, TimeUnit.SECONDS);
            running.set(false);
            watch.get(10, TimeUnit.SECONDS);
        } finally {
            running.set(false);
            pool.shutdownNow();
        }
        assertThat(failures).as("answers other than 200 and 409").isEmpty();
        assertThat(slowest.get())
                .as("the slowest of %d commands, ms", requests.get())
                .isLessThan(REQUEST_BOUND.toMillis());
        assertThat(longestScanGap.get())
                .as("the longest time without a completed scan, ms")
                .isLessThan(3000);
        assertThat(node.api.get("/actuator/health").text("status")).isEqualTo("UP");
    }

    /** The status code, or what went wrong when there was none within the bound. */
    private static String post(String path) {
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.api.port + path))
                            .header("Content-Type", "application/json")
                            .timeout(REQUEST_BOUND)
                            .POST(HttpRequest.BodyPublishers.ofString("{}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return String.valueOf(response.statusCode());
        } catch (Exception e) {
            return e.toString();
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
