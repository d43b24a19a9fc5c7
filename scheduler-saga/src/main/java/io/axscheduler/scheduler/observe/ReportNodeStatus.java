package io.axscheduler.scheduler.observe;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.scheduler.DatabaseTime;
import io.axscheduler.scheduler.NodeMetrics;
import io.axscheduler.scheduler.SchedulerProperties;
import io.axscheduler.scheduler.claim.ScanDueJobs;
import io.axscheduler.scheduler.fire.ScanSchedules;
import io.axscheduler.scheduler.run.JobExecutors;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Writes this node's row of {@code ax_nodes} every {@code ax.observe.node-report-ms}, on a thread of its own so a
 * scan stuck on the database does not stop it: whether the node scans, when its scans last completed (in database
 * time) and how full its pools are. Any node's explanations and alerts read these rows. Rows of nodes silent for a
 * day are removed.
 */
@Component
public class ReportNodeStatus implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ReportNodeStatus.class);
    static final long FORGET_AFTER_MS = 86_400_000L;
    /** The {@code held_back} column's length. */
    static final int HELD_BACK_CHARS = 2000;

    private final NamedParameterJdbcTemplate jdbc;
    private final ScanDueJobs scan;
    private final ScanSchedules schedules;
    private final JobExecutors executors;
    private final SchedulerProperties properties;
    private final ObjectMapper json;
    private final Clock clock;
    private final String node;
    private final long intervalMs;
    private final long startedAt;
    private ScheduledExecutorService timer;

    public ReportNodeStatus(
            NamedParameterJdbcTemplate jdbc,
            ScanDueJobs scan,
            ScanSchedules schedules,
            JobExecutors executors,
            SchedulerProperties properties,
            ObjectMapper json,
            Clock clock,
            NodeMetrics metrics,
            ObserveProperties observe) {
        this.jdbc = jdbc;
        this.scan = scan;
        this.schedules = schedules;
        this.executors = executors;
        this.properties = properties;
        this.json = json;
        this.clock = clock;
        this.node = metrics.node();
        this.intervalMs = observe.nodeReportMs();
        this.startedAt = clock.millis();
    }

    /**
     * Writes the row now; the timer calls it, and so do a pause or resume of scanning, to be seen at once. One at a
     * time: a timer's report that read the state before a pause must not write it after the pause's own report.
     */
    public synchronized void report() {
        long now = clock.millis();
        boolean scanning = properties.scan().enabled() && !scan.isPaused() && !schedules.isPaused();
        Map<String, List<Integer>> pools = new LinkedHashMap<>();
        for (String type : executors.inProcessTypes()) {
            pools.put(type, List.of(executors.threads(type), executors.active(type) + executors.queued(type)));
        }
        String poolsJson;
        try {
            poolsJson = json.writeValueAsString(pools);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("node", node);
        row.put("scanning", scanning ? 1 : 0);
        row.put("scanAgo", Math.max(0, now - scan.lastCompletedScan().toEpochMilli()));
        row.put("fireAgo", Math.max(0, now - schedules.lastCompletedPass().toEpochMilli()));
        row.put("startedAgo", Math.max(0, now - startedAt));
        row.put("pools", poolsJson);
        row.put("heldBack", heldBack(schedules.heldBack()));
        jdbc.update(
                "INSERT INTO ax_nodes (node_id, scanning, last_scan_at, last_fire_pass_at, reported_at, started_at,"
                        + " pools, held_back, reads_gaps) VALUES (:node, :scanning, " + DatabaseTime.NOW_MS
                        + " - :scanAgo, " + DatabaseTime.NOW_MS + " - :fireAgo, " + DatabaseTime.NOW_MS + ", "
                        + DatabaseTime.NOW_MS + " - :startedAgo, :pools, :heldBack, 1) ON DUPLICATE KEY UPDATE"
                        + " scanning = VALUES(scanning), last_scan_at = VALUES(last_scan_at),"
                        + " last_fire_pass_at = VALUES(last_fire_pass_at), reported_at = VALUES(reported_at),"
                        + " started_at = VALUES(started_at), pools = VALUES(pools), held_back = VALUES(held_back),"
                        + " reads_gaps = 1",
                row);
    }

    /**
     * The held-back types, each in its namespace ({@code namespace/jobType}), comma-separated, as many as fit the
     * column (the first in name order).
     */
    static String heldBack(Set<String> types) {
        StringBuilder held = new StringBuilder();
        for (String type : new TreeSet<>(types)) {
            if (held.length() + type.length() + 1 > HELD_BACK_CHARS) break;
            if (held.length() > 0) held.append(',');
            held.append(type);
        }
        return held.toString();
    }

    private void tick() {
        try {
            report();
            jdbc.update(
                    "DELETE FROM ax_nodes WHERE reported_at < " + DatabaseTime.NOW_MS + " - :forget",
                    Map.of("forget", FORGET_AFTER_MS));
        } catch (RuntimeException e) {
            log.warn("could not report this node's status: {}", e.toString());
        }
    }

    @Override
    public void start() {
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ax-node-status");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::tick, 0, intervalMs, TimeUnit.MILLISECONDS);
    }

    /** A stopping node says it no longer scans, so explanations do not count on it. */
    @Override
    public void stop() {
        if (timer == null) return;
        timer.shutdownNow();
        // after a report in flight, which could otherwise write "scanning" over it
        synchronized (this) {
            try {
                jdbc.update("UPDATE ax_nodes SET scanning = 0 WHERE node_id = :node", Map.of("node", node));
            } catch (RuntimeException e) {
                log.debug("could not mark this node stopped: {}", e.toString());
            }
        }
        timer = null;
    }

    @Override
    public boolean isRunning() {
        return timer != null;
    }

    /** Stops after the scans (which stop at Integer.MAX_VALUE) and before the pool goes down. */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 1;
    }
}
