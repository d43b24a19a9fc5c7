package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.axscheduler.query.metrics.ClusterGauges;
import io.axscheduler.scheduler.claim.ScanDueJobs;
import io.axscheduler.scheduler.fire.ScanSchedules;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The metrics of /actuator/prometheus after known work: counts of submitted, finished and retried jobs, the start-lag
 * histogram after jobs held past their due time, key conflicts, and schedules behind while scanning is stopped. Each
 * test reads the change its own work made; the schedule's, whose jobs would mix with the others', runs last, then
 * work in two other namespaces, each counted under its own.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MetricsIT {

    static Node node;

    @BeforeAll
    static void start() {
        node = Node.start(
                TestDatabase.freshDatabase("metrics"),
                "metrics-node",
                Map.of("ax.observe.schedule-behind-ms", "1000", "ax.observe.gauge-refresh-ms", "60000"));
    }

    @AfterAll
    static void stop() {
        node.close();
    }

    @Test
    @Order(1)
    void finished_jobs_are_counted_by_type_and_outcome_with_their_retries_and_durations() {
        List<String> jobs = new ArrayList<>();
        for (int i = 0; i < 4; i++) jobs.add(node.api.submit("{\"jobType\":\"sleep\",\"params\":{\"ms\":20}}"));
        String flaky = node.api.submit(
                "{\"jobType\":\"flaky\",\"params\":{\"failTimes\":1},\"maxRetries\":2,\"backoff\":{\"delaysMs\":[100]}}");
        jobs.forEach(id -> node.api.awaitStatus(id, "SUCCEEDED"));
        node.api.awaitStatus(flaky, "SUCCEEDED");

        Scrape s = awaitScrape(
                () -> Scrape.of(node),
                m -> m.value("ax_jobs_finished_total", "job_type", "flaky", "outcome", "succeeded") == 1);
        assertThat(s.value("ax_jobs_submitted_total", "namespace", "default", "job_type", "sleep"))
                .isEqualTo(4);
        assertThat(s.value(
                        "ax_jobs_finished_total", "namespace", "default", "job_type", "sleep", "outcome", "succeeded"))
                .isEqualTo(4);
        assertThat(s.value("ax_jobs_finished_total", "job_type", "flaky", "outcome", "failed"))
                .isEqualTo(1);
        assertThat(s.value("ax_job_retries_total", "namespace", "default", "job_type", "flaky"))
                .isEqualTo(1);
        assertThat(s.value("ax_job_duration_seconds_count", "namespace", "default", "job_type", "sleep"))
                .isEqualTo(4);
        assertThat(s.value("ax_job_duration_seconds_sum", "job_type", "sleep")).isGreaterThanOrEqualTo(0.08);
        assertThat(s.value("ax_scan_claimed_total")).isGreaterThanOrEqualTo(6);
        assertThat(s.value("ax_scan_duration_seconds_count")).isGreaterThan(0);
        assertThat(s.value("ax_scan_last_success_timestamp_seconds", "node", "metrics-node"))
                .isGreaterThan(System.currentTimeMillis() / 1000.0 - 30);
        assertThat(s.value("ax_pool_active", "job_type", "sleep")).isZero();
        assertThat(s.value("ax_dispatch_queue_depth", "job_type", "sleep")).isZero();
    }

    @Test
    @Order(1)
    void jobs_started_two_seconds_after_their_due_time_fall_in_the_lag_buckets_above_one_second() {
        // in a namespace of their own: the lag is counted per namespace, and no other test's jobs land in it
        ScanDueJobs scan = node.bean(ScanDueJobs.class);
        scan.pauseScanning();
        List<String> jobs = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++)
                jobs.add(node.api.submit(
                        "{\"jobType\":\"noop\",\"namespace\":\"team-lag\",\"params\":{\"lag\":" + i + "}}"));
            sleep(2500);
        } finally {
            scan.resumeScanning();
        }
        jobs.forEach(id -> node.api.awaitStatus(id, "SUCCEEDED"));

        Scrape after = awaitScrape(
                () -> Scrape.of(node),
                m -> zeroIfAbsent(m.value("ax_job_start_lag_seconds_count", "namespace", "team-lag")) >= 3);
        assertThat(after.value("ax_job_start_lag_seconds_count", "namespace", "team-lag"))
                .isEqualTo(3);
        assertThat(after.value("ax_job_start_lag_seconds_bucket", "namespace", "team-lag", "le", "1.0"))
                .as("none of the held jobs started within 1 s of its due time")
                .isZero();
        assertThat(after.value("ax_job_start_lag_seconds_sum", "namespace", "team-lag"))
                .isGreaterThanOrEqualTo(3 * 2.0);
    }

    @Test
    @Order(1)
    void counters_with_a_reason_are_there_at_zero_before_their_first_count() {
        // an alert on a rate needs the series before the first event: no hand-back or refused callback happened here
        Scrape scrape = Scrape.of(node);
        for (String reason : List.of("no_worker", "no_worker_took_it", "node_busy")) {
            assertThat(scrape.value("ax_claims_handed_back_total", "reason", reason))
                    .as(reason)
                    .isZero();
        }
        assertThat(scrape.value("ax_leases_expired_total")).isZero();
        for (String reason : List.of("bad_signature", "stale", "unknown_worker", "principal")) {
            assertThat(scrape.value("ax_callbacks_rejected_total", "reason", reason))
                    .as(reason)
                    .isZero();
        }
    }

    @Test
    @Order(1)
    void a_second_submit_of_a_job_key_counts_as_a_key_conflict() {
        double before = zeroIfAbsent(Scrape.of(node).value("ax_job_key_conflicts_total"));
        String job = node.api.submit("{\"jobType\":\"noop\",\"jobKey\":\"metrics-conflict\"}");
        assertThat(node.api
                        .post("/api/v1/jobs", "{\"jobType\":\"noop\",\"jobKey\":\"metrics-conflict\"}")
                        .status())
                .isEqualTo(200);
        assertThat(Scrape.of(node).value("ax_job_key_conflicts_total") - before).isEqualTo(1);
        // Its start would otherwise land in the start-lag count another test is reading.
        node.api.awaitStatus(job, "SUCCEEDED");
    }

    @Test
    @Order(2)
    void schedules_behind_rises_while_schedule_scanning_is_stopped_and_falls_when_it_resumes() {
        ClusterGauges gauges = node.bean(ClusterGauges.class);
        ScanSchedules schedules = node.bean(ScanSchedules.class);
        gauges.refresh();
        assertThat(Scrape.of(node).value("ax_schedules_behind", "namespace", "default"))
                .isZero();
        schedules.pauseScanning();
        String scheduleId;
        try {
            scheduleId = ScheduleHttp.create(node.api, """
                    {"name":"behind","trigger":{"type":"fixedRate","intervalMs":1000},"job":{"jobType":"noop"}}""");
            sleep(3000);
            gauges.refresh();
            assertThat(Scrape.of(node).value("ax_schedules_behind", "namespace", "default"))
                    .isEqualTo(1);
            // the overview (and the console) count with the same threshold as the gauge
            assertThat(node.api
                            .get("/api/v1/stats/overview")
                            .body()
                            .path("schedulesBehind")
                            .path("count")
                            .asLong())
                    .isEqualTo(1);
        } finally {
            schedules.resumeScanning();
        }
        Await.until(
                Duration.ofSeconds(10),
                () -> {
                    gauges.refresh();
                    return Scrape.of(node).value("ax_schedules_behind", "namespace", "default") == 0;
                },
                () -> "ax_schedules_behind " + Scrape.of(node).value("ax_schedules_behind"));
        // its jobs would mix with the other tests' counts
        assertThat(ScheduleHttp.delete(node.api, "/api/v1/schedules/" + scheduleId)
                        .status())
                .isLessThan(300);
        Scrape fired = Scrape.of(node);
        assertThat(fired.value("ax_schedule_fires_total", "outcome", "fired")).isGreaterThanOrEqualTo(1);
        assertThat(fired.value("ax_schedule_fire_lag_seconds_count", "namespace", "default"))
                .isGreaterThanOrEqualTo(1);
    }

    @Test
    @Order(1)
    void jobs_gauge_counts_waiting_jobs_and_the_oldest_waiting_age() {
        ClusterGauges gauges = node.bean(ClusterGauges.class);
        ScanDueJobs scan = node.bean(ScanDueJobs.class);
        scan.pauseScanning();
        List<String> jobs = new ArrayList<>();
        try {
            gauges.refresh();
            double waitingBefore = Scrape.of(node).value("ax_jobs", "status", "WAITING");
            for (int i = 0; i < 2; i++) jobs.add(node.api.submit("{\"jobType\":\"noop\"}"));
            sleep(1500);
            gauges.refresh();
            Scrape s = Scrape.of(node);
            assertThat(s.value("ax_jobs", "namespace", "default", "status", "WAITING") - waitingBefore)
                    .isEqualTo(2);
            assertThat(s.value("ax_jobs_oldest_waiting_seconds", "namespace", "default"))
                    .isGreaterThanOrEqualTo(1.0);
        } finally {
            scan.resumeScanning();
        }
        jobs.forEach(id -> node.api.awaitStatus(id, "SUCCEEDED"));
    }

    @Test
    @Order(3)
    void jobs_and_schedules_are_counted_in_their_own_namespace() {
        ClusterGauges gauges = node.bean(ClusterGauges.class);
        ScanDueJobs scan = node.bean(ScanDueJobs.class);
        ScanSchedules schedules = node.bean(ScanSchedules.class);
        List<String> jobs = new ArrayList<>();
        scan.pauseScanning();
        schedules.pauseScanning();
        String scheduleId;
        try {
            for (String namespace : List.of("metrics-a", "metrics-a", "metrics-b")) {
                jobs.add(node.api.submit("{\"jobType\":\"noop\",\"namespace\":\"" + namespace + "\"}"));
            }
            scheduleId = ScheduleHttp.create(node.api, """
                    {"name":"behind-b","namespace":"metrics-b","trigger":{"type":"fixedRate","intervalMs":1000},
                     "job":{"jobType":"noop"}}""");
            sleep(2500);
            gauges.refresh();
            Scrape s = Scrape.of(node);
            assertThat(s.value("ax_jobs", "namespace", "metrics-a", "status", "WAITING"))
                    .isEqualTo(2);
            assertThat(s.value("ax_jobs", "namespace", "metrics-b", "status", "WAITING"))
                    .isEqualTo(1);
            assertThat(s.value("ax_jobs", "namespace", "metrics-b", "status", "RUNNING"))
                    .as("a namespace shows its zeros too")
                    .isZero();
            assertThat(s.value("ax_jobs_oldest_waiting_seconds", "namespace", "metrics-a"))
                    .isGreaterThanOrEqualTo(1.0);
            // found past the first namespace: one index entry each, in namespace order
            assertThat(s.value("ax_jobs_oldest_waiting_seconds", "namespace", "metrics-b"))
                    .isGreaterThanOrEqualTo(1.0);
            assertThat(s.value("ax_jobs_submitted_total", "namespace", "metrics-a", "job_type", "noop"))
                    .isEqualTo(2);
            assertThat(s.value("ax_jobs_submitted_total", "namespace", "metrics-b", "job_type", "noop"))
                    .isEqualTo(1);
            assertThat(s.value("ax_schedules_behind", "namespace", "metrics-b")).isEqualTo(1);
            assertThat(s.value("ax_schedules_behind", "namespace", "default")).isZero();
        } finally {
            scan.resumeScanning();
            schedules.resumeScanning();
        }
        jobs.forEach(id -> node.api.awaitStatus(id, "SUCCEEDED"));
        Scrape done = awaitScrape(
                () -> Scrape.of(node),
                m -> m.value("ax_schedule_fires_total", "namespace", "metrics-b", "outcome", "fired") >= 1
                        && m.value(
                                        "ax_jobs_finished_total",
                                        "namespace",
                                        "metrics-a",
                                        "job_type",
                                        "noop",
                                        "outcome",
                                        "succeeded")
                                == 2);
        assertThat(done.value(
                        "ax_jobs_finished_total", "namespace", "metrics-b", "job_type", "noop", "outcome", "succeeded"))
                .isGreaterThanOrEqualTo(1);
        assertThat(ScheduleHttp.delete(node.api, "/api/v1/schedules/" + scheduleId)
                        .status())
                .isLessThan(300);
        assertThat(done.value("ax_schedule_fires_total", "namespace", "metrics-a"))
                .as("no schedule of metrics-a fired")
                .isNaN();
    }

    @Test
    @Order(4)
    void workers_are_counted_by_namespace_app_and_state_and_an_app_whose_workers_left_shows_zero() throws Exception {
        ClusterGauges gauges = node.bean(ClusterGauges.class);
        Api.Response registered = WorkerRemoteIT.registerUnreachable(node, "metrics-app", "metrics-type");
        assertThat(registered.status()).as(registered.body().toString()).isEqualTo(201);
        // another team's app of the same name is counted in its own namespace
        Api.Response other = node.api.post(
                "/api/v1/workers/register",
                "{\"app\":\"metrics-app\",\"namespace\":\"metrics-other\",\"address\":\"http://127.0.0.1:"
                        + WorkerRemoteIT.closedPort() + "\",\"jobTypes\":[\"metrics-type\"],\"capacity\":1}");
        assertThat(other.status()).as(other.body().toString()).isEqualTo(201);
        gauges.refresh();
        Scrape with = Scrape.of(node);
        assertThat(with.value("ax_workers", "namespace", "default", "app", "metrics-app", "state", "live"))
                .isEqualTo(1);
        assertThat(with.value("ax_workers", "namespace", "metrics-other", "app", "metrics-app", "state", "live"))
                .isEqualTo(1);
        assertThat(with.value("ax_workers", "namespace", "default", "app", "metrics-app", "state", "cooling"))
                .isZero();

        assertThat(WorkerRemoteIT.deregister(node, registered.text("workerId"))).isEqualTo(204);
        assertThat(WorkerRemoteIT.deregister(node, other.text("workerId"))).isEqualTo(204);
        gauges.refresh();
        assertThat(Scrape.of(node).value("ax_workers", "namespace", "default", "app", "metrics-app", "state", "live"))
                .as("the series stays, at zero, once the app's last worker is gone")
                .isZero();
    }

    private static double zeroIfAbsent(double v) {
        return Double.isNaN(v) ? 0 : v;
    }

    private static Scrape awaitScrape(
            java.util.function.Supplier<Scrape> scrape, java.util.function.Predicate<Scrape> ok) {
        Scrape[] last = new Scrape[1];
        Await.until(Duration.ofSeconds(10), () -> ok.test(last[0] = scrape.get()), () -> last[0].text());
        return last[0];
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
