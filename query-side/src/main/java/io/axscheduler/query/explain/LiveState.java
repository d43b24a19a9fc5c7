package io.axscheduler.query.explain;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.query.observe.LivenessProperties;
import io.axscheduler.query.observe.ObserveProperties;
import io.axscheduler.query.observe.ScanningPauses;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The state around a job now, as the nodes and workers report it in their tables (the nodes write {@code ax_nodes}
 * every few seconds, workers heartbeat into {@code workers}): which nodes are alive and scanning, how full their pools
 * are, which workers are live. All in the database's time.
 */
@Component
public class LiveState {

    static final String NOW_MS = "ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000)";
    private static final TypeReference<Map<String, List<Integer>>> POOLS = new TypeReference<>() {};

    /**
     * A node's row of ax_nodes. {@code pools}: job type → [threads, running or queued]; {@code heldBack}: the job types
     * its schedule scan holds back (paces), each in its namespace ({@code namespace/jobType}, HoldBack's key).
     */
    public record NodeRow(
            String nodeId,
            boolean scanning,
            long lastScanAt,
            long lastFirePassAt,
            long reportedAt,
            long startedAt,
            Map<String, List<Integer>> pools,
            Set<String> heldBack) {}

    /** What a reader sees at once: the database's now, the live nodes, and the live workers of each app. */
    public record Snapshot(long nowMs, List<NodeRow> nodes, long scanStallMs) {

        /** Nodes alive whose scan is switched on and completed within the stall limit. */
        public List<NodeRow> scanning() {
            return nodes.stream()
                    .filter(n -> n.scanning() && nowMs - n.lastScanAt() <= scanStallMs)
                    .toList();
        }

        public List<NodeRow> scanningSchedules() {
            return nodes.stream()
                    .filter(n -> n.scanning() && nowMs - n.lastFirePassAt() <= scanStallMs)
                    .toList();
        }
    }

    /**
     * Why no live node scans (jobs, or schedules when {@code schedules}): none alive, scanning paused or switched off
     * by an operator on each, or scans not completing within the stall bound; the nodes named by case, and a node an
     * admin paused with who did and when ({@link ScanningPauses}).
     */
    public String whyNoneScans(Snapshot now, boolean schedules) {
        if (now.nodes().isEmpty()) return "no node is alive";
        Map<Boolean, List<NodeRow>> byScanning =
                now.nodes().stream().collect(Collectors.partitioningBy(NodeRow::scanning));
        List<NodeRow> paused = byScanning.get(false), stalled = byScanning.get(true);
        List<String> pausedIds = paused.stream().map(NodeRow::nodeId).toList();
        String whom = paused.stream()
                .flatMap(n -> pauses.of(n.nodeId(), n.startedAt()).stream()
                        .map(p -> n.nodeId() + " paused by " + p.by() + " at " + p.at()))
                .collect(Collectors.joining("; "));
        if (stalled.isEmpty())
            return "scanning is paused or switched off on every live node " + pausedIds + " ("
                    + (whom.isEmpty() ? "" : whom + "; ")
                    + "POST /api/v1/admin/scanning/resume, or ax.scheduler.scan.enabled)";
        return "no node's " + (schedules ? "schedule scan" : "scan") + " completed within " + now.scanStallMs()
                + " ms (stalled: " + stalled.stream().map(NodeRow::nodeId).toList()
                + (paused.isEmpty() ? "" : "; paused or switched off: " + pausedIds)
                + (whom.isEmpty() ? "" : "; " + whom) + ")";
    }

    private final NamedParameterJdbcTemplate jdbc;
    private final ObjectMapper json;
    private final ScanningPauses pauses;
    private final long nodeSilentMs;
    private final long scanStallMs;
    private final long workerSilenceMs;
    private final long workerQuietMs;

    public LiveState(
            NamedParameterJdbcTemplate jdbc,
            ObjectMapper json,
            ObserveProperties observe,
            LivenessProperties liveness,
            ScanningPauses pauses) {
        this.jdbc = jdbc;
        this.json = json;
        this.pauses = pauses;
        // three reports missed: the node is gone (or its database pool is stuck, which is as bad)
        this.nodeSilentMs = observe.nodeSilentMs();
        this.scanStallMs = liveness.health().scanStallMs();
        this.workerSilenceMs = liveness.workers().silenceMs();
        this.workerQuietMs = liveness.workers().quietMs();
    }

    /** A worker's last heartbeat and how long ago by the database's clock, or empty when its row is gone. */
    public record Heard(long atMs, long agoMs) {}

    public Optional<Heard> heardOf(String workerId) {
        return jdbc
                .query(
                        "SELECT last_heartbeat, " + NOW_MS + " - last_heartbeat FROM workers WHERE worker_id = :id",
                        Map.of("id", workerId),
                        (rs, i) -> new Heard(rs.getLong(1), rs.getLong(2)))
                .stream()
                .findFirst();
    }

    /** Heard from longer ago than two heartbeats: missing them (a worker is removed after {@link #workerSilenceMs}). */
    public long workerQuietMs() {
        return workerQuietMs;
    }

    public long workerSilenceMs() {
        return workerSilenceMs;
    }

    public Snapshot snapshot() {
        long now = jdbc.queryForObject("SELECT " + NOW_MS, Map.of(), Long.class);
        List<NodeRow> nodes = new ArrayList<>();
        jdbc.query(
                "SELECT node_id, scanning, last_scan_at, last_fire_pass_at, reported_at, pools, held_back, started_at"
                        + " FROM ax_nodes"
                        + " WHERE reported_at >= :since ORDER BY node_id LIMIT 1000",
                Map.of("since", now - nodeSilentMs),
                rs -> {
                    nodes.add(new NodeRow(
                            rs.getString(1),
                            rs.getInt(2) == 1,
                            rs.getLong(3),
                            rs.getLong(4),
                            rs.getLong(5),
                            rs.getLong(8),
                            pools(rs.getString(6)),
                            rs.getString(7).isEmpty()
                                    ? Set.of()
                                    : Set.of(rs.getString(7).split(","))));
                });
        return new Snapshot(now, nodes, scanStallMs);
    }

    /**
     * A live worker's registered job types, until when (database time) it gets no new work after failed pushes, what
     * the last failed push met (null: none kept), and when it was last heard from (database time).
     */
    public record Worker(
            List<String> jobTypes,
            long coolingUntil,
            int capacity,
            int inFlight,
            String lastPushError,
            long lastHeartbeat) {

        boolean full() {
            return inFlight >= capacity;
        }
    }

    /**
     * Live workers (heartbeat within the silence limit) of {@code app} (any app when null) registered in
     * {@code namespace}, by worker id.
     */
    public Map<String, Worker> liveWorkers(String app, String namespace) {
        Map<String, Worker> workers = new LinkedHashMap<>();
        Map<String, Object> params = new java.util.HashMap<>(Map.of("silence", workerSilenceMs, "ns", namespace));
        if (app != null) params.put("app", app);
        jdbc.query(
                "SELECT worker_id, job_types, cooling_until, capacity, in_flight, last_push_error, last_heartbeat"
                        + " FROM workers WHERE last_heartbeat >= " + NOW_MS + " - :silence"
                        + " AND namespace = :ns" + (app == null ? "" : " AND app = :app")
                        + " ORDER BY worker_id LIMIT 1000",
                params,
                rs -> {
                    workers.put(
                            rs.getString(1),
                            new Worker(
                                    List.of(rs.getString(2).split(",")),
                                    rs.getLong(3),
                                    rs.getInt(4),
                                    rs.getInt(5),
                                    rs.getString(6),
                                    rs.getLong(7)));
                });
        return workers;
    }

    /** When the node last wrote its row of {@code ax_nodes}, or null when it has none. */
    public Long lastReportOf(String nodeId) {
        return jdbc
                .query(
                        "SELECT reported_at FROM ax_nodes WHERE node_id = :id",
                        Map.of("id", nodeId),
                        (rs, i) -> rs.getLong(1))
                .stream()
                .findFirst()
                .orElse(null);
    }

    /** The apps with a worker registered in {@code namespace} (up to 20, by name). */
    public List<String> appsIn(String namespace) {
        return jdbc.queryForList(
                "SELECT DISTINCT app FROM workers WHERE namespace = :ns ORDER BY app LIMIT 20",
                Map.of("ns", namespace),
                String.class);
    }

    /**
     * The jobs of {@code jobType} claimed or running in the pools of {@code nodes} (not bound to a worker app), counted
     * by namespace, most first: who holds a full pool's slots. Pools are per job type, shared by every namespace.
     */
    public Map<String, Integer> inPoolsByNamespace(String jobType, java.util.Collection<String> nodes) {
        Map<String, Integer> counts = new java.util.LinkedHashMap<>();
        if (nodes.isEmpty()) return counts;
        jdbc.query(
                "SELECT namespace, COUNT(*) FROM job_queue WHERE job_type = :type AND status IN ('CLAIMED', 'RUNNING')"
                        + " AND executor_app IS NULL AND node IN (:nodes) GROUP BY namespace ORDER BY COUNT(*) DESC,"
                        + " namespace LIMIT 20",
                Map.of("type", jobType, "nodes", nodes),
                rs -> {
                    counts.put(rs.getString(1), rs.getInt(2));
                });
        return counts;
    }

    /** When the app's last worker in {@code namespace} was last heard from, or null when none is registered there. */
    public Long lastHeardOf(String app, String namespace) {
        return jdbc.queryForObject(
                "SELECT MAX(last_heartbeat) FROM workers WHERE app = :app AND namespace = :ns",
                Map.of("app", app, "ns", namespace),
                Long.class);
    }

    private Map<String, List<Integer>> pools(String text) {
        try {
            return json.readValue(text, POOLS);
        } catch (Exception e) {
            return Map.of();
        }
    }
}
