package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.axscheduler.scheduler.NodeMetrics;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The schedule loop wakes for the next fire time, not only at the end of its pause: a new schedule's first fire and
 * each next one are made on time, and their jobs (run here) are started with the fire. The pause is long here (5–6 s)
 * so that a fire made at its end could not pass for one made on time.
 */
class ScheduleOnTimeIT {

    static final long PERIOD_MS = 2_000;
    /** How late a fire may be made and still count as woken for: far less than the pause. */
    static final long ON_TIME_MS = 1_500;

    static Node node;

    @BeforeAll
    static void start() {
        node = Node.start(
                TestDatabase.freshDatabase("schedule_on_time"),
                "node-a",
                Map.of(
                        "ax.scheduler.schedules.scan-min-interval-ms", "5000",
                        "ax.scheduler.schedules.scan-max-interval-ms", "6000",
                        "ax.scheduler.schedules.fire-ahead-ms", "20",
                        "ax.scheduler.scan.claim-ahead-ms", "20",
                        // claim passes only when woken: a periodic one holds the pools' free slots while it runs
                        "ax.scheduler.scan.min-interval-ms", "30000",
                        "ax.scheduler.scan.max-interval-ms", "30000"));
    }

    @AfterAll
    static void stop() {
        if (node != null) node.close();
    }

    @Test
    void each_fire_is_made_at_its_time_and_its_job_started_with_it() {
        // the first authenticated calls of a fresh node are slow; the first fire time must not be eaten by them
        for (int i = 0; i < 3; i++) node.api.get("/api/v1/jobs?size=1");
        double startedBefore = node.bean(NodeMetrics.class)
                .registry()
                .get("ax.fires.started")
                .counter()
                .count();
        Instant first = Instant.now().plusMillis(1_500).truncatedTo(ChronoUnit.MILLIS);
        String scheduleId = ScheduleHttp.create(node.api, """
                {"name":"on-time","trigger":{"type":"fixedRate","intervalMs":%d,"startAt":"%s"},
                 "job":{"jobType":"noop"}}""".formatted(PERIOD_MS, first));

        Await.until(
                Duration.ofSeconds(30),
                () -> succeeded(scheduleId) >= 3,
                () -> "jobs: " + node.jdbc().queryForList("SELECT * FROM job_queue WHERE schedule_id = ?", scheduleId));

        List<Map<String, Object>> jobs = node.jdbc()
                .queryForList(
                        "SELECT run_at, created_at FROM job_queue WHERE schedule_id = ? ORDER BY run_at LIMIT 3",
                        scheduleId);
        for (int i = 0; i < 3; i++) {
            long runAt = ((Number) jobs.get(i).get("run_at")).longValue();
            long createdAt = ((Number) jobs.get(i).get("created_at")).longValue();
            assertThat(runAt).isEqualTo(first.toEpochMilli() + i * PERIOD_MS);
            // made no earlier than the look-ahead allows, and not at the end of a pause
            assertThat(createdAt - runAt)
                    .as("fire %d made, ms after its time", i)
                    .isBetween(-100L, ON_TIME_MS);
        }
        assertThat(node.bean(NodeMetrics.class)
                        .registry()
                        .get("ax.fires.started")
                        .counter()
                        .count())
                .isGreaterThanOrEqualTo(startedBefore + 3);
    }

    private static int succeeded(String scheduleId) {
        return node.jdbc()
                .queryForObject(
                        "SELECT COUNT(*) FROM job_queue WHERE schedule_id = ? AND status = 'SUCCEEDED'",
                        Integer.class,
                        scheduleId);
    }
}
