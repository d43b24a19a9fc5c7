package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.axscheduler.scheduler.fire.ScanSchedules;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A backlog of due schedules, many batches long, is drained by the loop and its fire threads in parallel batches
 * ({@code SKIP LOCKED} keeping them apart) without relying on periodic passes: each schedule fired once and its fire
 * time's job made once.
 */
class ScheduleBacklogIT {

    static final int SCHEDULES = 95;

    static Node node;

    @BeforeAll
    static void start() {
        node = Node.start(
                TestDatabase.freshDatabase("schedule_backlog"),
                "node-a",
                Map.of(
                        "ax.scheduler.schedules.batch-size", "10",
                        "ax.scheduler.schedules.fire-threads", "3",
                        // a pass only when woken: the drain must not rely on passes that follow
                        "ax.scheduler.schedules.scan-min-interval-ms", "30000",
                        "ax.scheduler.schedules.scan-max-interval-ms", "30000",
                        // a loaded machine may take seconds from set-up to the fires: still on-time fires, one each
                        "ax.scheduler.schedules.misfire-threshold-ms", "120000"));
    }

    @AfterAll
    static void stop() {
        if (node != null) node.close();
    }

    @Test
    void a_backlog_of_many_batches_fires_every_schedule_once_with_one_job_each() {
        ScanSchedules loop = node.bean(ScanSchedules.class);
        loop.pauseScanning();
        Instant startAt = Instant.now().plusMillis(300).truncatedTo(ChronoUnit.MILLIS);
        StringBuilder body = new StringBuilder("{\"schedules\":[");
        for (int i = 0; i < SCHEDULES; i++) {
            body.append(i == 0 ? "" : ",").append("""
                    {"name":"backlog-%d","trigger":{"type":"fixedRate","intervalMs":3600000,"startAt":"%s"},
                     "job":{"jobType":"noop"}}""".formatted(i, startAt));
        }
        var made = node.api.post("/api/v1/schedules/batch", body.append("]}").toString());
        assertThat(made.status()).as(made.body().toString()).isEqualTo(201);
        List<String> ids = new ArrayList<>();
        for (JsonNode result : made.body().path("results"))
            ids.add(result.path("scheduleId").asText());
        Await.until(Duration.ofSeconds(10), () -> Instant.now().isAfter(startAt.plusMillis(200)), () -> "not due");

        loop.resumeScanning();

        Await.until(
                Duration.ofSeconds(60),
                () -> fired() == SCHEDULES,
                () -> fired() + " of " + SCHEDULES + " schedules fired");
        for (String id : ids) {
            assertThat(node.jdbc().queryForList("SELECT run_at FROM job_queue WHERE schedule_id = ?", Long.class, id))
                    .as(id)
                    .containsExactly(startAt.toEpochMilli());
            assertThat(node.jdbc()
                            .queryForObject(
                                    "SELECT COUNT(*) FROM DomainEventEntry WHERE aggregateIdentifier = ?"
                                            + " AND payloadType LIKE '%.ScheduleFired'",
                                    Integer.class, id))
                    .as(id)
                    .isEqualTo(1);
        }
    }

    private static int fired() {
        return node.jdbc().queryForObject("SELECT COUNT(*) FROM schedules WHERE fire_count = 1", Integer.class);
    }
}
