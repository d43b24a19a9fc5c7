package io.axscheduler.console;

import io.axscheduler.query.stats.StatsQueries;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

/**
 * Writes this node's row of the node list every few seconds (its health and last scan, from the scanner's health
 * indicator when the node has one), and trims the console's statistics to their retention.
 */
@Component
class NodeBeat implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(NodeBeat.class);
    private static final long DAY_MS = 86_400_000L;

    private final JdbcTemplate jdbc;
    private final StatsQueries stats;
    private final Map<String, HealthIndicator> health;
    private final String nodeId;
    private final long retentionDays;
    private final long beatMs;
    private volatile Long startedAt;

    NodeBeat(
            JdbcTemplate jdbc,
            StatsQueries stats,
            Map<String, HealthIndicator> health,
            NodeName node,
            ConsoleProperties settings) {
        this.jdbc = jdbc;
        this.stats = stats;
        this.health = health;
        this.nodeId = node.id();
        this.retentionDays = settings.statsRetentionDays();
        this.beatMs = settings.nodeBeatMs();
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar tasks) {
        tasks.addFixedDelayTask(new FixedDelayTask(this::beat, Duration.ofMillis(beatMs), Duration.ZERO));
    }

    void beat() {
        try {
            long now = stats.databaseNow();
            if (startedAt == null) startedAt = now;
            HealthIndicator scanner = health.get("scanner");
            String status = "UP";
            Long lastScan = null;
            if (scanner != null) {
                Health h = scanner.health();
                status = h.getStatus().getCode();
                Object scan = h.getDetails().get("lastCompletedScan");
                if (scan != null) lastScan = Instant.parse(scan.toString()).toEpochMilli();
            }
            int updated = jdbc.update(
                    // started_at too: a node restarted under the same id started now, not when it first did
                    "UPDATE console_nodes SET started_at = ?, last_seen = ?, health = ?, last_scan = ? WHERE node_id = ?",
                    startedAt,
                    now,
                    status,
                    lastScan,
                    nodeId);
            if (updated == 0) {
                jdbc.update(
                        "INSERT INTO console_nodes (node_id, started_at, last_seen, health, last_scan)"
                                + " VALUES (?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE last_seen = VALUES(last_seen)",
                        nodeId,
                        startedAt,
                        now,
                        status,
                        lastScan);
            }
        } catch (RuntimeException e) {
            log.warn("console: could not write this node's row: {}", e.getMessage());
        }
    }

    @Scheduled(initialDelay = 60_000, fixedDelay = 3_600_000)
    void trim() {
        try {
            long before = stats.databaseNow() - retentionDays * DAY_MS;
            // a bounded delete a time, so no run holds many locks
            while (jdbc.update("DELETE FROM stats_outcomes WHERE minute_at < ? LIMIT 10000", before) == 10000) {}
            while (jdbc.update("DELETE FROM stats_start_lag WHERE minute_at < ? LIMIT 10000", before) == 10000) {}
            while (jdbc.update("DELETE FROM stats_outcomes_hourly WHERE hour_at < ? LIMIT 10000", before) == 10000) {}
            jdbc.update("DELETE FROM console_nodes WHERE last_seen < ?", before);
        } catch (RuntimeException e) {
            log.warn("console: could not trim old statistics: {}", e.getMessage());
        }
    }
}
