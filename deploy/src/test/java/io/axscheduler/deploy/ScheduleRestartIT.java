package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/** Every node down across several fire times: FIRE_ONCE fires one catch-up, then follows the schedule again. */
class ScheduleRestartIT {

    @Test
    void fire_once_fires_a_single_catch_up_after_every_node_was_down_then_follows_the_schedule() throws Exception {
        String db = TestDatabase.freshDatabase("schedule_restart");
        String id;
        long lastBefore;
        long downUntil;
        try (Node a = Node.start(db, "node-a");
                Node b = Node.start(db, "node-b")) {
            id = ScheduleHttp.create(a.api, """
                    {"name":"rate-1s","trigger":{"type":"fixedRate","intervalMs":1000},"job":{"jobType":"noop"},
                     "misfirePolicy":"FIRE_ONCE"}""");
            String schedule = id;
            Await.until(Duration.ofSeconds(20), () -> jobsOf(a.jdbc(), schedule) >= 2, () -> "fewer than 2 jobs");
        }
        JdbcTemplate direct = new JdbcTemplate(new org.springframework.jdbc.datasource.DriverManagerDataSource(
                db, TestDatabase.user(), TestDatabase.password()));
        lastBefore = direct.queryForObject("SELECT MAX(run_at) FROM job_queue WHERE schedule_id = ?", Long.class, id);
        // every node down across at least four fire times, by the database's clock
        Await.until(Duration.ofSeconds(20), () -> databaseNow(direct) > lastBefore + 4_500, () -> "database time");
        downUntil = databaseNow(direct);
        try (Node a = Node.start(db, "node-a");
                Node b = Node.start(db, "node-b")) {
            String schedule = id;
            Await.until(
                    Duration.ofSeconds(20),
                    () -> direct.queryForObject(
                                    "SELECT COUNT(*) FROM job_queue WHERE schedule_id = ? AND run_at > ?",
                                    Integer.class,
                                    schedule,
                                    downUntil)
                            >= 3,
                    () -> "fewer than 3 fires after the restart");
            // the nodes' status rows say when they started this time, not the first time
            Long started =
                    direct.queryForObject("SELECT started_at FROM ax_nodes WHERE node_id = 'node-a'", Long.class);
            assertThat(started).as("node-a's started_at").isGreaterThan(lastBefore + 4_000);
            Api.Response paused = a.api.post("/api/v1/schedules/" + id + "/pause", "{}");
            assertThat(paused.status()).as(paused.body().toString()).isEqualTo(200);
        }
        List<Long> after = direct.queryForList(
                "SELECT run_at FROM job_queue WHERE schedule_id = ? AND run_at > ? ORDER BY run_at",
                Long.class,
                id,
                lastBefore);
        List<Long> missedWindow = after.stream().filter(t -> t <= downUntil).toList();
        assertThat(missedWindow).as("jobs for the fire times missed while down").containsExactly(lastBefore + 1_000);
        List<Long> onSchedule = after.stream().filter(t -> t > downUntil).toList();
        assertThat(onSchedule).as("fires after the restart").hasSizeGreaterThanOrEqualTo(2);
        for (int i = 1; i < onSchedule.size(); i++) {
            assertThat(onSchedule.get(i) - onSchedule.get(i - 1)).isEqualTo(1_000);
        }
        Integer keys = direct.queryForObject(
                "SELECT COUNT(DISTINCT job_key) FROM job_queue WHERE schedule_id = ?", Integer.class, id);
        Integer jobs = direct.queryForObject("SELECT COUNT(*) FROM job_queue WHERE schedule_id = ?", Integer.class, id);
        assertThat(keys).isEqualTo(jobs);
        List<Map<String, Object>> all =
                direct.queryForList("SELECT job_key, run_at FROM job_queue WHERE schedule_id = ? ORDER BY run_at", id);
        System.out.println("jobs of the schedule across the restart: " + all);
    }

    private static int jobsOf(JdbcTemplate jdbc, String scheduleId) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM job_queue WHERE schedule_id = ?", Integer.class, scheduleId);
    }

    private static long databaseNow(JdbcTemplate jdbc) {
        return jdbc.queryForObject("SELECT ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000)", Long.class);
    }
}
