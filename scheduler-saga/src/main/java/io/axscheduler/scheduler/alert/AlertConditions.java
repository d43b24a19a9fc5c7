package io.axscheduler.scheduler.alert;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.schedule.FireTimes;
import io.axscheduler.api.schedule.HoldBack;
import io.axscheduler.api.schedule.Trigger;
import io.axscheduler.api.spi.JobTypeCatalog;
import io.axscheduler.scheduler.observe.ObserveProperties;
import io.axscheduler.scheduler.remote.WorkerProperties;
import io.axscheduler.scheduler.remote.WorkerlessJobs;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * What holds now for each rule type, as keys (what the alert is about: a job type, a schedule, a node, a worker, an
 * app) with a message and details. Every query is an index range over a small or bounded set: the failures table by
 * time, schedules by (state, next fire time), the nodes' and workers' rows, the claim index; at most
 * {@value #MAX_KEYS} keys a rule. A rule's namespace narrows every type but the stalled scanner (a node scans for
 * every namespace).
 */
@Component
class AlertConditions {

    static final int MAX_KEYS = 100;
    static final String NO_NODE_SCANNING = "no-node-scanning";

    record Violation(String message, Map<String, Object> details) {}

    private final NamedParameterJdbcTemplate jdbc;
    private final AlertProperties properties;
    private final ObjectMapper json;
    private final long nodeSilentMs;
    private final long workerMissedMs;

    AlertConditions(
            NamedParameterJdbcTemplate jdbc,
            AlertProperties properties,
            ObjectMapper json,
            WorkerProperties workers,
            ObserveProperties observe) {
        this.jdbc = jdbc;
        this.properties = properties;
        this.json = json;
        this.nodeSilentMs = observe.nodeSilentMs();
        // two heartbeats missed: lost before the registry removes it at its limit
        this.workerMissedMs = workers.quietMs();
    }

    /**
     * The keys whose condition holds for {@code rule} now. {@code open}: keys of the rule's alerts that fire, with
     * when each was raised, for conditions that last beyond what the tables show (a removed worker); {@code pending}:
     * keys seen holding that wait for the rule's forMs, which a windowed condition must go on checking.
     */
    Map<String, Violation> evaluate(AlertRule rule, long nowMs, Map<String, Long> open, Set<String> pending) {
        long threshold = rule.thresholdOrDefault();
        AlertRule.Filter f = rule.filter();
        return switch (rule.type()) {
            // a job's last run failed or timed out with no retry left: each such job once, however often an operator
            // ran it again and it failed again
            case JOB_FAILED -> failures(nowMs, f, threshold, " AND for_good = 1", true, "job(s)", "failed for good");
            // every run that timed out, retried or not: a job timed out twice counts twice
            case JOB_TIMED_OUT ->
                failures(nowMs, f, threshold, " AND outcome = 'TIMED_OUT'", false, "run(s)", "timed out");
            case SCHEDULE_BEHIND -> schedulesBehind(nowMs, f, threshold);
            case SCHEDULE_MISFIRED -> schedulesMisfired(nowMs, f, threshold);
            case SCANNER_STALLED -> scannersStalled(nowMs, threshold, rule.forMsOrZero(), open);
            case QUEUE_DEPTH -> queueDepth(nowMs, f, threshold);
            case OLDEST_WAITING -> oldestWaiting(nowMs, f, threshold);
            case WORKER_LOST -> workersLost(nowMs, f, open);
            case NO_LIVE_WORKER -> appsWithoutWorkers(nowMs, f);
            case CRON_RUNAWAY -> runawaySchedules(nowMs, f, threshold, union(open.keySet(), pending));
        };
    }

    /** {@code perJob}: a job's latest row only (jobs counted), else every row (runs counted). */
    private Map<String, Violation> failures(
            long nowMs,
            AlertRule.Filter f,
            long threshold,
            String condition,
            boolean perJob,
            String counted,
            String what) {
        Map<String, Object> p = new HashMap<>(Map.of("since", nowMs - properties.eventWindowMs()));
        String where = filter(f, p, "job_type", "schedule_id");
        // the scheduler's own jobs (an alert's delivery) only when a rule names their type: a channel that is down
        // would otherwise raise alerts about itself, to itself
        // compared as bytes: the column's collation ignores case, and a team's own AX-… type is not the scheduler's
        if (f.jobType() == null)
            where += " AND CAST(job_type AS BINARY) NOT LIKE '" + JobTypeCatalog.RESERVED_PREFIX + "%'";
        Map<String, List<Map<String, Object>>> byKey = new LinkedHashMap<>();
        Set<String> jobsSeen = new HashSet<>();
        jdbc.query(
                "SELECT job_id, attempt, job_type, schedule_id, error, failed_at FROM job_failures"
                        + " WHERE failed_at >= :since"
                        + condition + where + " ORDER BY failed_at DESC LIMIT 1000",
                p,
                rs -> {
                    // newest first: a job's later rows are its earlier failures
                    if (perJob && !jobsSeen.add(rs.getString("job_id"))) return;
                    String key = f.scheduleId() != null ? rs.getString("schedule_id") : rs.getString("job_type");
                    Map<String, Object> job = new LinkedHashMap<>();
                    job.put("jobId", rs.getString("job_id"));
                    job.put("attempt", rs.getInt("attempt"));
                    job.put("error", rs.getString("error"));
                    job.put("at", Instant.ofEpochMilli(rs.getLong("failed_at")));
                    byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(job);
                });
        Map<String, Violation> out = new LinkedHashMap<>();
        byKey.forEach((key, jobs) -> {
            if (jobs.size() < Math.max(1, threshold) || out.size() >= MAX_KEYS) return;
            Map<String, Object> first = jobs.get(0);
            out.put(
                    key,
                    new Violation(
                            jobs.size() + " " + counted + " of " + key + " " + what + " in the last "
                                    + properties.eventWindowMs() / 1000 + " s; latest " + first.get("jobId") + ": "
                                    + first.get("error"),
                            Map.of(
                                    "count",
                                    jobs.size(),
                                    "jobs",
                                    jobs.subList(0, Math.min(10, jobs.size())),
                                    f.scheduleId() != null ? "scheduleId" : "jobType",
                                    key)));
        });
        return out;
    }

    private Map<String, Violation> schedulesBehind(long nowMs, AlertRule.Filter f, long thresholdMs) {
        Map<String, Object> p = new HashMap<>(Map.of("before", nowMs - thresholdMs, "limit", MAX_KEYS));
        String where = filter(f, p, "job_type", "schedule_id");
        Map<String, Violation> out = new LinkedHashMap<>();
        jdbc.query(
                "SELECT schedule_id, name, next_fire_at FROM schedules"
                        + " WHERE state = 'ACTIVE' AND next_fire_at < :before"
                        + where + " ORDER BY next_fire_at LIMIT :limit",
                p,
                rs -> {
                    long next = rs.getLong("next_fire_at");
                    out.put(
                            rs.getString("schedule_id"),
                            new Violation(
                                    "schedule " + rs.getString("name") + " (" + rs.getString("schedule_id")
                                            + ") is " + (nowMs - next) / 1000 + " s behind its next fire time "
                                            + Instant.ofEpochMilli(next),
                                    Map.of(
                                            "scheduleId", rs.getString("schedule_id"),
                                            "nextFireTime", Instant.ofEpochMilli(next),
                                            "behindMs", nowMs - next)));
                });
        return out;
    }

    /** Schedules with at least {@code threshold} misfire skips within the event window, newest skip first. */
    private Map<String, Violation> schedulesMisfired(long nowMs, AlertRule.Filter f, long threshold) {
        Map<String, Object> p = new HashMap<>(Map.of("since", nowMs - properties.eventWindowMs()));
        String where = filter(f, p, "m.namespace", "s.job_type", "m.schedule_id");
        Map<String, List<Map<String, Object>>> bySchedule = new LinkedHashMap<>();
        Map<String, String> names = new HashMap<>();
        jdbc.query(
                "SELECT m.schedule_id, COALESCE(s.name, '(deleted)') AS name, m.fire_time, m.reason, m.skipped_at FROM schedule_misfires m"
                        + " LEFT JOIN schedules s ON s.schedule_id = m.schedule_id WHERE m.skipped_at >= :since"
                        + where + " ORDER BY m.skipped_at DESC LIMIT 1000",
                p,
                rs -> {
                    String id = rs.getString("schedule_id");
                    names.putIfAbsent(id, rs.getString("name"));
                    Map<String, Object> skip = new LinkedHashMap<>();
                    skip.put("fireTime", Instant.ofEpochMilli(rs.getLong("fire_time")));
                    skip.put("reason", rs.getString("reason"));
                    skip.put("at", Instant.ofEpochMilli(rs.getLong("skipped_at")));
                    bySchedule.computeIfAbsent(id, k -> new ArrayList<>()).add(skip);
                });
        Map<String, Violation> out = new LinkedHashMap<>();
        bySchedule.forEach((id, skips) -> {
            if (skips.size() < Math.max(1, threshold) || out.size() >= MAX_KEYS) return;
            Map<String, Object> newest = skips.get(0);
            out.put(
                    id,
                    new Violation(
                            "schedule " + names.get(id) + " (" + id + ") skipped missed fire times "
                                    + (skips.size() == 1 ? "once" : skips.size() + " times")
                                    + " by its misfire policy; the latest at " + newest.get("at") + ": "
                                    + newest.get("reason"),
                            Map.of(
                                    "scheduleId",
                                    id,
                                    "count",
                                    skips.size(),
                                    "skips",
                                    skips.subList(0, Math.min(10, skips.size())))));
        });
        return out;
    }

    private Map<String, Violation> scannersStalled(long nowMs, long thresholdMs, long forMs, Map<String, Long> open) {
        Map<String, Violation> out = new LinkedHashMap<>();
        int[] live = new int[2]; // reporting nodes, of which scanning in time
        jdbc.query(
                "SELECT node_id, scanning, last_scan_at, last_fire_pass_at, reported_at FROM ax_nodes"
                        + " ORDER BY node_id LIMIT 1000",
                Map.of(),
                rs -> {
                    String node = rs.getString("node_id");
                    boolean scanning = rs.getInt("scanning") == 1;
                    long lastScan = Math.min(rs.getLong("last_scan_at"), rs.getLong("last_fire_pass_at"));
                    long reported = rs.getLong("reported_at");
                    boolean reporting = nowMs - reported <= nodeSilentMs;
                    if (reporting) live[0]++;
                    if (reporting && scanning && nowMs - lastScan <= thresholdMs) live[1]++;
                    // a node that scanned and then went silent, or that reports while its scan is stuck. A silent
                    // node's key holds for the event window after its alert was raised (or, not raised yet, after
                    // the threshold and the rule's forMs), then resolves: a node killed for good (replaced under
                    // another id) would otherwise keep it up until its row is forgotten a day later, and if no other
                    // node scans, NO_NODE_SCANNING says so
                    Long raised = open.get(node);
                    boolean gone = !reporting
                            && (raised != null
                                    ? nowMs - raised >= properties.eventWindowMs()
                                    : nowMs - reported > thresholdMs + forMs + properties.eventWindowMs());
                    if (scanning
                            && !gone
                            && nowMs - Math.min(lastScan, reported) > thresholdMs
                            && out.size() < MAX_KEYS) {
                        out.put(
                                node,
                                new Violation(
                                        reporting
                                                ? "node " + node + " has not completed a scan for "
                                                        + (nowMs - lastScan) / 1000 + " s"
                                                : "node " + node + " was scanning and has been silent for "
                                                        + (nowMs - reported) / 1000 + " s",
                                        Map.of(
                                                "node", node,
                                                "lastScanAt", Instant.ofEpochMilli(lastScan),
                                                "reportedAt", Instant.ofEpochMilli(reported))));
                    }
                });
        if (live[1] == 0) {
            out.put(
                    NO_NODE_SCANNING,
                    new Violation(
                            "no node is scanning: " + live[0] + " node(s) report, none with scanning on and a scan"
                                    + " completed within " + thresholdMs / 1000 + " s",
                            Map.of("reportingNodes", live[0])));
        }
        return out;
    }

    private Map<String, Violation> queueDepth(long nowMs, AlertRule.Filter f, long threshold) {
        Map<String, Object> p = new HashMap<>(Map.of("now", nowMs));
        String where = filter(f, p, "job_type", "schedule_id");
        Long due = jdbc.queryForObject(
                "SELECT COUNT(*) FROM job_queue WHERE claimable = 1 AND run_at <= :now" + where, p, Long.class);
        String key = f.jobType() == null ? "all" : f.jobType();
        if (due == null || due < Math.max(1, threshold)) return Map.of();
        return Map.of(
                key,
                new Violation(
                        due + " due job(s)" + (f.jobType() == null ? "" : " of " + f.jobType())
                                + " wait to be claimed (threshold " + threshold + ")",
                        Map.of("waiting", due, "threshold", threshold)));
    }

    private Map<String, Violation> oldestWaiting(long nowMs, AlertRule.Filter f, long thresholdMs) {
        Map<String, Object> p = new HashMap<>(Map.of("before", nowMs - thresholdMs));
        String where = filter(f, p, "job_type", "schedule_id");
        Map<String, Violation> out = new LinkedHashMap<>();
        jdbc.query(
                "SELECT job_type, MIN(run_at) oldest FROM job_queue WHERE claimable = 1" + where
                        + " GROUP BY job_type HAVING MIN(run_at) < :before LIMIT " + MAX_KEYS,
                p,
                rs -> {
                    long oldest = rs.getLong("oldest");
                    out.put(
                            rs.getString("job_type"),
                            new Violation(
                                    "a due job of " + rs.getString("job_type") + " has waited "
                                            + (nowMs - oldest) / 1000 + " s",
                                    Map.of(
                                            "jobType", rs.getString("job_type"),
                                            "dueAt", Instant.ofEpochMilli(oldest),
                                            "waitedMs", nowMs - oldest)));
                });
        return out;
    }

    private Map<String, Violation> workersLost(long nowMs, AlertRule.Filter f, Map<String, Long> open) {
        Map<String, Object> p = new HashMap<>(Map.of("before", nowMs - workerMissedMs));
        String app = (f.app() == null ? "" : " AND app = :app") + namespace(f, p, "namespace");
        if (f.app() != null) p.put("app", f.app());
        Map<String, Violation> out = new LinkedHashMap<>();
        jdbc.query(
                "SELECT worker_id, app, address, last_heartbeat FROM workers WHERE last_heartbeat < :before" + app
                        + " ORDER BY last_heartbeat LIMIT " + MAX_KEYS,
                p,
                rs -> {
                    long last = rs.getLong("last_heartbeat");
                    out.put(
                            rs.getString("worker_id"),
                            new Violation(
                                    "worker " + rs.getString("worker_id") + " of app " + rs.getString("app") + " at "
                                            + rs.getString("address") + " missed its heartbeats for "
                                            + (nowMs - last) / 1000 + " s",
                                    Map.of(
                                            "workerId", rs.getString("worker_id"),
                                            "app", rs.getString("app"),
                                            "address", rs.getString("address"),
                                            "lastHeartbeat", Instant.ofEpochMilli(last))));
                });
        // the registry removes a lost worker soon after: its alert stays up for the event window unless it returns —
        // as itself, or restarted at its address (a restarted worker registers under a new id)
        if (!open.isEmpty()) {
            List<String> present = jdbc.queryForList(
                    "SELECT worker_id FROM workers WHERE worker_id IN (:ids)",
                    Map.of("ids", open.keySet()),
                    String.class);
            open.forEach((worker, raisedAt) -> {
                if (!present.contains(worker)
                        && nowMs - raisedAt < properties.eventWindowMs()
                        && !restartedAtItsAddress(worker, raisedAt, nowMs))
                    out.putIfAbsent(
                            worker,
                            new Violation("worker " + worker + " was lost and removed", Map.of("workerId", worker)));
            });
        }
        return out;
    }

    /** Due jobs waiting for a worker under one alert key: how many, the oldest due time, what they are spread over. */
    private record Waiting(long jobs, long oldest, List<String> names) {

        /**
         * Adds a row of {@code waiting} jobs, {@code oldest} due, to {@code key}'s tally, naming it by its
         * {@code nameColumn}; a new key only while fewer than {@code room} are tallied.
         */
        static void add(Map<String, Waiting> tally, String key, java.sql.ResultSet rs, String nameColumn, int room)
                throws java.sql.SQLException {
            Waiting w = tally.get(key);
            if (w == null && tally.size() >= room) return;
            List<String> names = w == null ? new ArrayList<>() : w.names();
            names.add(rs.getString(nameColumn));
            tally.put(
                    key,
                    new Waiting(
                            (w == null ? 0 : w.jobs()) + rs.getLong("waiting"),
                            Math.min(w == null ? Long.MAX_VALUE : w.oldest(), rs.getLong("oldest")),
                            names));
        }
    }

    /** Prefix of a {@code NO_LIVE_WORKER} key naming a job type (jobs bound to no app), not an app. */
    static final String TYPE_KEY = "type:";

    private void typesWithoutWorkers(long nowMs, AlertRule.Filter f, Map<String, Violation> out) {
        Map<String, Object> p = new HashMap<>(Map.of("live", nowMs - workerMissedMs, "now", nowMs));
        String where = filter(f, p, "job_type", "schedule_id");
        // only the types no node runs: a backlog of a type the nodes run is not read row by row each evaluation
        List<String> types = WorkerlessJobs.typesNoNodeRuns(jdbc);
        if (types != null) {
            if (types.isEmpty()) return;
            where += " AND job_type IN (:types)";
            p.put("types", types);
        }
        Map<String, Waiting> byType = new LinkedHashMap<>();
        // grouped first: the checks below run once per type and namespace, not per waiting job
        jdbc.query(
                // the groups are named job_queue for the shared condition's sake
                "SELECT job_type, namespace, waiting, oldest FROM (SELECT job_type, namespace, COUNT(*) waiting,"
                        + " MIN(run_at) oldest FROM job_queue WHERE claimable = 1 AND run_at <= :now"
                        + " AND executor_app IS NULL" + where + " GROUP BY job_type, namespace) job_queue"
                        + " WHERE NOT " + HoldBack.RUN_BY_A_NODE
                        + " AND NOT EXISTS (SELECT 1 FROM workers w WHERE w.namespace = job_queue.namespace"
                        + " AND w.last_heartbeat >= :live AND FIND_IN_SET(job_queue.job_type, w.job_types) > 0)"
                        + " ORDER BY job_type, namespace LIMIT 1000",
                p,
                rs -> {
                    Waiting.add(byType, rs.getString("job_type"), rs, "namespace", MAX_KEYS - out.size());
                });
        byType.forEach((type, o) -> {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("jobType", type);
            details.put("waiting", o.jobs());
            details.put("oldestDueAt", Instant.ofEpochMilli(o.oldest()));
            details.put("namespaces", o.names());
            details.put("liveWorkers", 0L);
            out.put(
                    TYPE_KEY + type,
                    new Violation(
                            o.jobs() + " due job(s) of type " + type + " wait for a worker: no node runs it, and no"
                                    + " live worker in namespace " + String.join(", ", o.names())
                                    + " does (every worker of the type left)",
                            details));
        });
    }

    /**
     * Whether a live worker of the lost worker's app registered at its address after its alert was raised: the same
     * service come back. Read from the alert's details (alerts raised before they named the address never are).
     */
    private boolean restartedAtItsAddress(String lostWorkerId, long raisedAt, long nowMs) {
        List<String> details = jdbc.queryForList(
                "SELECT details FROM alerts WHERE type = 'WORKER_LOST' AND alert_key = :key AND open_key IS NOT NULL",
                Map.of("key", lostWorkerId),
                String.class);
        for (String text : details) {
            JsonNode lost;
            try {
                lost = json.readTree(text == null ? "{}" : text);
            } catch (JsonProcessingException unreadable) {
                continue;
            }
            String app = lost.path("app").asText(null),
                    address = lost.path("address").asText(null);
            if (app == null || address == null) continue;
            Integer back = jdbc.queryForObject(
                    "SELECT COUNT(*) FROM workers WHERE app = :app AND address = :address AND registered_at >= :raised"
                            + " AND last_heartbeat >= :live",
                    Map.of("app", app, "address", address, "raised", raisedAt, "live", nowMs - workerMissedMs),
                    Integer.class);
            if (back != null && back > 0) return true;
        }
        return false;
    }

    /**
     * Apps with due jobs no live worker of theirs can take: none is live in the job's namespace, or none of those
     * registers the job's type (a service deployed without one of its handlers). Keyed by app; the message tells
     * the two apart and names the types. Then the job types of due jobs bound to no app that no node runs and no live
     * worker of their namespace runs (every worker of the type gone), keyed {@code type:<jobType>} (an app's name has
     * no colon).
     */
    private Map<String, Violation> appsWithoutWorkers(long nowMs, AlertRule.Filter f) {
        Map<String, Object> p = new HashMap<>(Map.of("live", nowMs - workerMissedMs, "now", nowMs));
        String app = f.app() == null ? "" : " AND waiting_app = :app";
        if (f.app() != null) p.put("app", f.app());
        String where = filter(f, p, "job_type", "schedule_id");
        Map<String, Waiting> byApp = new LinkedHashMap<>();
        // the waiting jobs bound to an app, from their own index (not the nodes' backlog), grouped first: the
        // worker check runs once per app, namespace and type, not per waiting job
        jdbc.query(
                // the groups are named job_queue for the condition's sake
                "SELECT waiting_app executor_app, job_type, SUM(waiting) waiting, MIN(oldest) oldest FROM (SELECT"
                        + " waiting_app, namespace, job_type, COUNT(*) waiting, MIN(run_at) oldest FROM job_queue"
                        + " WHERE " + WorkerlessJobs.BOUND + " AND run_at <= :now" + app + where
                        + " GROUP BY waiting_app, namespace, job_type) job_queue WHERE NOT EXISTS (SELECT 1 FROM"
                        + " workers w WHERE w.app = job_queue.waiting_app AND w.namespace = job_queue.namespace"
                        + " AND w.last_heartbeat >= :live AND FIND_IN_SET(job_queue.job_type, w.job_types) > 0)"
                        + " GROUP BY waiting_app, job_type ORDER BY waiting_app, job_type LIMIT 1000",
                p,
                rs -> {
                    Waiting.add(byApp, rs.getString("executor_app"), rs, "job_type", MAX_KEYS);
                });
        Map<String, Long> liveWorkers = new HashMap<>();
        if (!byApp.isEmpty()) {
            jdbc.query(
                    "SELECT app, COUNT(*) live FROM workers WHERE last_heartbeat >= :live AND app IN (:apps)"
                            + " GROUP BY app",
                    Map.of("live", nowMs - workerMissedMs, "apps", byApp.keySet()),
                    rs -> {
                        liveWorkers.put(rs.getString("app"), rs.getLong("live"));
                    });
        }
        Map<String, Violation> out = new LinkedHashMap<>();
        byApp.forEach((a, w) -> {
            long live = liveWorkers.getOrDefault(a, 0L);
            String why = live == 0
                    ? ", which has no live worker"
                    : ", but none of its " + live + " live worker(s) runs " + String.join(", ", w.names())
                            + " in the job's namespace";
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("app", a);
            details.put("waiting", w.jobs());
            details.put("oldestDueAt", Instant.ofEpochMilli(w.oldest()));
            details.put("jobTypes", w.names());
            details.put("liveWorkers", live);
            out.put(a, new Violation(w.jobs() + " due job(s) wait for app " + a + why, details));
        });
        if (f.app() == null) typesWithoutWorkers(nowMs, f, out);
        return out;
    }

    /**
     * Schedules defined (created, or changed by an update) within the event window, read by the {@code defined_at}
     * index, and those the rule already tracks (firing or pending), whose trigger as defined now fires more than
     * {@code perDay} times in the day from now. A schedule whose trigger was slowed below the threshold or that was
     * deleted no longer holds; a paused one still does (resuming it brings the fires back).
     */
    private Map<String, Violation> runawaySchedules(long nowMs, AlertRule.Filter f, long perDay, Set<String> tracked) {
        Map<String, Object> p = new HashMap<>(Map.of("since", nowMs - properties.eventWindowMs()));
        String where = filter(f, p, "job_type", "schedule_id");
        String columns = "SELECT schedule_id, name, trigger_json, anchor_at, defined_at FROM schedules"
                + " WHERE state <> 'DELETED'" + where;
        // two selects, so each reads its own index (defined_at, the primary key) rather than the whole table
        String sql = columns + " AND defined_at >= :since";
        if (!tracked.isEmpty()) {
            sql = "(" + sql + " LIMIT 1000) UNION (" + columns + " AND schedule_id IN (:tracked))";
            p.put("tracked", tracked);
        }
        Map<String, Violation> out = new LinkedHashMap<>();
        jdbc.query(sql + " LIMIT 1000", p, rs -> {
            if (out.size() >= MAX_KEYS) return;
            try {
                Trigger trigger = json.readValue(rs.getString("trigger_json"), Trigger.class);
                long fires = FireTimes.firesPerDay(
                        trigger, Instant.ofEpochMilli(rs.getLong("anchor_at")), Instant.ofEpochMilli(nowMs));
                if (fires > perDay) {
                    out.put(
                            rs.getString("schedule_id"),
                            new Violation(
                                    "schedule " + rs.getString("name") + " (" + rs.getString("schedule_id") + ") fires "
                                            + fires + " times a day (threshold " + perDay + ")",
                                    Map.of(
                                            "scheduleId", rs.getString("schedule_id"),
                                            "firesPerDay", fires,
                                            "definedAt", Instant.ofEpochMilli(rs.getLong("defined_at")))));
                }
            } catch (Exception unreadable) {
                // a trigger this node cannot read is no runaway it can judge
            }
        });
        return out;
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new HashSet<>(a);
        all.addAll(b);
        return all;
    }

    /** The filter's namespace as an SQL condition on {@code column}, adding its parameter; none without one. */
    private static String namespace(AlertRule.Filter f, Map<String, Object> p, String column) {
        if (f.namespace() == null) return "";
        p.put("namespace", f.namespace());
        return " AND " + column + " = :namespace";
    }

    /**
     * The filter's namespace, job type and schedule as SQL conditions on the given columns, adding their parameters.
     */
    private static String filter(AlertRule.Filter f, Map<String, Object> p, String typeColumn, String scheduleColumn) {
        return filter(f, p, "namespace", typeColumn, scheduleColumn);
    }

    private static String filter(
            AlertRule.Filter f,
            Map<String, Object> p,
            String namespaceColumn,
            String typeColumn,
            String scheduleColumn) {
        StringBuilder sql = new StringBuilder(namespace(f, p, namespaceColumn));
        if (f.jobType() != null) {
            sql.append(" AND ").append(typeColumn).append(" = :jobType");
            p.put("jobType", f.jobType());
        }
        if (f.scheduleId() != null) {
            sql.append(" AND ").append(scheduleColumn).append(" = :scheduleId");
            p.put("scheduleId", f.scheduleId());
        }
        return sql.toString();
    }
}
