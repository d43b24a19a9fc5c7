package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.axscheduler.scheduler.fire.ScanSchedules;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Overload is bounded and visible: while the jobs of a type wait past {@code hold-back-after-ms}, its schedules stop
 * making more of them (other types fire on), the schedule shows in {@code ax_schedules_behind}, and once the type
 * catches up the late fire times are made as the misfire policy says, not all at once.
 */
class ScheduleHoldBackIT {

    static Node node;

    @BeforeAll
    static void start() {
        node = Node.start(
                TestDatabase.freshDatabase("schedule_hold_back"),
                "node-a",
                Map.of(
                        "ax.scheduler.execution.threads-per-type", "1",
                        "ax.scheduler.schedules.hold-back-after-ms", "1000",
                        "ax.scheduler.schedules.min-interval-ms", "500",
                        "ax.scheduler.schedules.misfire-threshold-ms", "1000",
                        "ax.observe.schedule-behind-ms", "1000",
                        "ax.observe.gauge-refresh-ms", "300"));
    }

    @AfterAll
    static void stop() {
        if (node != null) node.close();
    }

    private static String schedule(String name, String job) {
        var made = node.api.post("/api/v1/schedules", """
                {"name":"%s","trigger":{"type":"fixedRate","intervalMs":500},"job":%s,"overlapPolicy":"ALLOW"}""".formatted(name, job));
        assertThat(made.status()).as(made.body().toString()).isEqualTo(201);
        return made.body().path("scheduleId").asText();
    }

    private static int jobsOf(String scheduleId) {
        return node.jdbc()
                .queryForObject("SELECT COUNT(*) FROM job_queue WHERE schedule_id = ?", Integer.class, scheduleId);
    }

    private static Set<String> heldBack() {
        return node.bean(ScanSchedules.class).heldBack();
    }

    @Test
    void a_type_whose_jobs_wait_too_long_stops_firing_until_it_catches_up() throws Exception {
        // one thread for sleep, each job a minute long: from the second fire on, the jobs wait
        String slow = schedule("slow", "{\"jobType\":\"sleep\",\"params\":{\"ms\":60000}}");
        String quick = schedule("quick", "{\"jobType\":\"noop\"}");
        Await.until(Duration.ofSeconds(20), () -> heldBack().contains("sleep"), () -> "held back: " + heldBack());
        assertThat(heldBack()).doesNotContain("noop");

        int slowHeld = jobsOf(slow), quickHeld = jobsOf(quick);
        Thread.sleep(3_000);
        // a fire made ahead just before the hold may still come; six more would be a fire every half second
        assertThat(jobsOf(slow)).isLessThanOrEqualTo(slowHeld + 1);
        assertThat(jobsOf(quick)).isGreaterThanOrEqualTo(quickHeld + 4);
        Await.until(
                Duration.ofSeconds(10),
                () -> Scrape.of(node).value("ax_schedules_behind", "namespace", "default") >= 1,
                () -> "ax_schedules_behind " + Scrape.of(node).value("ax_schedules_behind", "namespace", "default"));

        // why the schedule did not fire at its last due time: held back
        JsonNode explained = node.api
                .get("/api/v1/schedules/" + slow + "/explain?at="
                        + Instant.now().minusMillis(300))
                .body();
        assertThat(explained.toString()).contains("HELD_BACK");

        // the backlog goes: the type is no longer behind, and the schedule fires again, the times it missed (six
        // or more) as one catch-up fire (FIRE_ONCE), not each
        int beforeRelease = jobsOf(slow);
        node.jdbc()
                .queryForList(
                        "SELECT job_id FROM job_queue WHERE schedule_id = ? AND status IN ('WAITING','CLAIMED','RUNNING')",
                        String.class,
                        slow)
                .forEach(id -> assertThat(node.api
                                .post("/api/v1/jobs/" + id + "/cancel", "{}")
                                .status())
                        .isLessThan(300));
        Await.until(Duration.ofSeconds(20), () -> !heldBack().contains("sleep"), () -> "held back: " + heldBack());
        Await.until(Duration.ofSeconds(20), () -> jobsOf(slow) > beforeRelease, () -> "no fire after the release");
        assertThat(jobsOf(slow) - beforeRelease).isLessThan(5);
    }
}
