package io.axscheduler.query.stats;

import io.axscheduler.api.job.JobStatus;
import io.axscheduler.query.job.OldestDue;
import io.axscheduler.query.observe.LivenessProperties;
import io.axscheduler.query.observe.ScanningPauses;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The overview's figures. Each query reads an index range or the stats buckets, never the event store or a table
 * walked row by row: counts by status as {@link StatusCounts} says, waiting by type over job_queue's status index,
 * running over its few CLAIMED and RUNNING entries, oldest waiting one index dive per type, throughput and lag the
 * stats buckets of the window (minutes for the hour, hours for the day).
 */
@Component
public class StatsQueries {

    static final long NODE_ALIVE_MS = 30_000;
    static final int LAG_WINDOW_MINUTES = 5;
    private static final long MINUTE = StatsProjection.MINUTE_MS;
    private static final long HOUR = 60 * MINUTE;
    private static final int LIST_LIMIT = 100;

    private final NamedParameterJdbcTemplate jdbc;
    private final StatusCounts statusCounts;
    private final long workerSilentMs;
    private final long behindMs;
    private final Clock clock;
    private final ScanningPauses pauses;

    public StatsQueries(
            NamedParameterJdbcTemplate jdbc,
            StatusCounts statusCounts,
            Clock clock,
            LivenessProperties liveness,
            io.axscheduler.query.observe.ObserveProperties observe,
            ScanningPauses pauses) {
        this.jdbc = jdbc;
        // as the ax_schedules_behind gauge: one meaning of "behind" wherever it is shown
        this.behindMs = observe.scheduleBehindMs();
        this.pauses = pauses;
        // as the ax_workers gauge and the workers list: SILENT before the registry removes the worker
        this.workerSilentMs = liveness.workers().quietMs();
        this.statusCounts = statusCounts;
        this.clock = clock;
    }

    /** The database's clock: what the nodes share. */
    public long databaseNow() {
        Long now = jdbc.getJdbcTemplate().queryForObject("SELECT ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000)", Long.class);
        return now == null ? clock.millis() : now;
    }

    public Overview overview(String namespace) {
        String ns = namespace == null || namespace.isBlank() ? null : namespace.trim();
        return overview(ns, ns == null ? null : Set.of(ns));
    }

    /**
     * The overview of the jobs, schedules and workers in {@code namespaces} ({@code null}: every namespace; empty:
     * none), {@code label} being the namespace filter it answers. Restricted to namespaces, counts and waiting jobs
     * are ranges of job_queue's (namespace, status, …) index per namespace, each count exact up to the same bound as
     * {@link StatusCounts}' (a larger one is shown as that bound plus one, marked as not counted in full).
     */
    public Overview overview(String label, Set<String> namespaces) {
        long now = databaseNow();
        if (namespaces != null && namespaces.isEmpty()) return empty(now, label);
        Map<String, Long> counts;
        Map<String, Instant> asOf;
        if (namespaces == null) {
            StatusCounts.Counts all = statusCounts.now();
            counts = all.counts();
            asOf = all.asOf();
        } else {
            counts = new LinkedHashMap<>();
            asOf = new LinkedHashMap<>();
            for (JobStatus s : JobStatus.values()) {
                long n = 0;
                for (String ns : namespaces) {
                    Long c = jdbc.queryForObject(
                            "SELECT COUNT(*) FROM (SELECT 1 FROM job_queue WHERE namespace = :ns AND status = :s"
                                    + " LIMIT :cap) t",
                            Map.of("ns", ns, "s", s.name(), "cap", statusCounts.exactUpTo() + 1),
                            Long.class);
                    n += c == null ? 0 : c;
                }
                if (n > statusCounts.exactUpTo()) {
                    n = statusCounts.exactUpTo() + 1;
                    asOf.put(s.name(), null);
                }
                counts.put(s.name(), n);
            }
        }
        return new Overview(
                Instant.ofEpochMilli(now),
                label,
                counts,
                asOf,
                waitingByType(namespaces),
                oldestWaitingMs(now, namespaces),
                running(namespaces),
                startLag(now, namespaces),
                throughput(now - 59 * MINUTE, now, MINUTE, namespaces),
                throughput(now - 23 * HOUR, now, HOUR, namespaces),
                failures(now - 23 * HOUR, namespaces),
                nodes(now, namespaces),
                workers(now, namespaces),
                schedulesBehind(now, namespaces));
    }

    private Overview empty(long now, String ns) {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (JobStatus s : JobStatus.values()) counts.put(s.name(), 0L);
        return new Overview(
                Instant.ofEpochMilli(now),
                ns,
                counts,
                Map.of(),
                List.of(),
                null,
                List.of(),
                new Overview.StartLag(LAG_WINDOW_MINUTES, 0, null, null),
                throughput(now - 59 * MINUTE, now, MINUTE, Set.of()),
                throughput(now - 23 * HOUR, now, HOUR, Set.of()),
                List.of(),
                nodes(now, Set.of()),
                List.of(),
                new Overview.SchedulesBehind(0, List.of()));
    }

    private List<Overview.WaitingType> waitingByType(Set<String> namespaces) {
        Map<String, long[]> byType = new TreeMap<>();
        if (namespaces == null) {
            jdbc.query(
                    "SELECT job_type, COUNT(*) FROM job_queue WHERE status IN ('WAITING', 'RETRY_WAITING')"
                            + " GROUP BY job_type ORDER BY job_type LIMIT " + LIST_LIMIT,
                    Map.of(),
                    rs -> {
                        byType.put(rs.getString(1), new long[] {rs.getLong(2), Long.MAX_VALUE});
                    });
            // one dive per type into (claimable, job_type, run_at)
            jdbc.query(
                    "SELECT job_type, MIN(run_at) FROM job_queue WHERE claimable = 1 GROUP BY job_type",
                    Map.of(),
                    rs -> {
                        long[] row = byType.get(rs.getString(1));
                        if (row != null) row[1] = rs.getLong(2);
                    });
        } else {
            for (String ns : namespaces) {
                jdbc.query(
                        "SELECT job_type, COUNT(*) FROM job_queue WHERE namespace = :ns"
                                + " AND status IN ('WAITING', 'RETRY_WAITING') GROUP BY job_type ORDER BY job_type"
                                + " LIMIT " + LIST_LIMIT,
                        Map.of("ns", ns),
                        rs -> {
                            byType.computeIfAbsent(rs.getString(1), k -> new long[] {0, Long.MAX_VALUE})[0] +=
                                    rs.getLong(2);
                        });
            }
            for (Map.Entry<String, long[]> e : byType.entrySet()) {
                Long due = oldestDue(e.getKey(), namespaces);
                if (due != null) e.getValue()[1] = due;
            }
        }
        List<Overview.WaitingType> list = new ArrayList<>();
        byType.forEach((type, row) -> list.add(new Overview.WaitingType(
                type, row[0], row[1] == Long.MAX_VALUE ? null : Instant.ofEpochMilli(row[1]))));
        return list;
    }

    /**
     * The earliest due time of a type's claimable jobs in {@code namespaces}: its range of (claimable, job_type,
     * run_at) in due order, up to the first row of those namespaces.
     */
    private Long oldestDue(String jobType, Set<String> namespaces) {
        List<Long> due = jdbc.queryForList(
                "SELECT run_at FROM job_queue WHERE claimable = 1 AND job_type = :t AND namespace IN (:ns)"
                        + " ORDER BY run_at LIMIT 1",
                Map.of("t", jobType, "ns", namespaces),
                Long.class);
        return due.isEmpty() ? null : due.get(0);
    }

    /** How long the job due longest ago has been waiting; null when no waiting job is due. */
    private Long oldestWaitingMs(long now, Set<String> namespaces) {
        if (namespaces != null) {
            Long oldest = null;
            for (Overview.WaitingType w : waitingByType(namespaces)) {
                if (w.oldestDueAt() != null
                        && (oldest == null || w.oldestDueAt().toEpochMilli() < oldest))
                    oldest = w.oldestDueAt().toEpochMilli();
            }
            return oldest == null || oldest > now ? null : now - oldest;
        }
        Long oldest = OldestDue.overall(jdbc);
        return oldest == null || oldest > now ? null : now - oldest;
    }

    private List<Overview.Running> running(Set<String> namespaces) {
        Map<List<String>, long[]> rows = new TreeMap<>((a, b) -> {
            int c = a.get(0).compareTo(b.get(0));
            return c != 0 ? c : a.get(1).compareTo(b.get(1));
        });
        jdbc.query(
                "SELECT COALESCE(node, ''), job_type, status, COUNT(*) FROM job_queue"
                        + " WHERE status IN ('CLAIMED', 'RUNNING')"
                        + (namespaces == null ? "" : " AND namespace IN (:ns)")
                        + " GROUP BY node, job_type, status",
                namespaces == null ? Map.of() : Map.of("ns", namespaces),
                rs -> {
                    long[] row = rows.computeIfAbsent(List.of(rs.getString(1), rs.getString(2)), k -> new long[2]);
                    row[rs.getString(3).equals("CLAIMED") ? 0 : 1] += rs.getLong(4);
                });
        List<Overview.Running> list = new ArrayList<>();
        rows.forEach((key, row) -> list.add(new Overview.Running(key.get(0), key.get(1), row[0], row[1])));
        return list.size() > LIST_LIMIT ? list.subList(0, LIST_LIMIT) : list;
    }

    private Overview.StartLag startLag(long now, Set<String> ns) {
        long from = floor(now, MINUTE) - (LAG_WINDOW_MINUTES - 1) * MINUTE;
        List<Long> counts = new ArrayList<>();
        for (int i = 0; i < StartLagBuckets.count(); i++) counts.add(0L);
        jdbc.query(
                "SELECT bucket, SUM(starts) FROM stats_start_lag WHERE minute_at >= :from"
                        + (ns == null ? "" : ns.isEmpty() ? " AND 1 = 0" : " AND namespace IN (:ns)")
                        + " GROUP BY bucket",
                params(from, ns),
                rs -> {
                    int bucket = rs.getInt(1);
                    if (bucket >= 0 && bucket < counts.size()) counts.set(bucket, rs.getLong(2));
                });
        long starts = counts.stream().mapToLong(Long::longValue).sum();
        return new Overview.StartLag(
                LAG_WINDOW_MINUTES,
                starts,
                StartLagBuckets.percentile(counts, 0.50),
                StartLagBuckets.percentile(counts, 0.99));
    }

    /** Outcomes per {@code step} from the step holding {@code from} to the one holding {@code now}, zeros filled in. */
    private List<Overview.Throughput> throughput(long from, long now, long step, Set<String> ns) {
        long first = floor(from, step);
        int steps = (int) ((floor(now, step) - first) / step) + 1;
        long[][] sums = new long[steps][5];
        String table = step == HOUR ? "stats_outcomes_hourly" : "stats_outcomes";
        String at = step == HOUR ? "hour_at" : "minute_at";
        jdbc.query(
                "SELECT " + at + ", outcome, SUM(jobs) FROM " + table + " WHERE " + at + " >= :from"
                        + (ns == null ? "" : ns.isEmpty() ? " AND 1 = 0" : " AND namespace IN (:ns)")
                        + " GROUP BY " + at + ", outcome",
                params(first, ns),
                rs -> {
                    int i = (int) ((floor(rs.getLong(1), step) - first) / step);
                    int k = column(rs.getString(2));
                    if (i >= 0 && i < steps && k >= 0) sums[i][k] += rs.getLong(3);
                });
        List<Overview.Throughput> list = new ArrayList<>(steps);
        for (int i = 0; i < steps; i++) {
            long[] s = sums[i];
            list.add(new Overview.Throughput(Instant.ofEpochMilli(first + i * step), s[0], s[1], s[2], s[3], s[4]));
        }
        return list;
    }

    private static int column(String outcome) {
        return switch (outcome) {
            case "CREATED" -> 0;
            case "SUCCEEDED" -> 1;
            case "FAILED" -> 2;
            case "TIMED_OUT" -> 3;
            case "CANCELED" -> 4;
            default -> -1;
        };
    }

    private List<Overview.Failures> failures(long from, Set<String> ns) {
        Map<String, long[]> byType = new TreeMap<>();
        jdbc.query(
                "SELECT job_type, outcome, SUM(jobs) FROM stats_outcomes_hourly WHERE hour_at >= :from"
                        + " AND outcome IN ('FAILED', 'TIMED_OUT')"
                        + (ns == null ? "" : ns.isEmpty() ? " AND 1 = 0" : " AND namespace IN (:ns)")
                        + " GROUP BY job_type, outcome",
                params(floor(from, HOUR), ns),
                rs -> {
                    long[] row = byType.computeIfAbsent(rs.getString(1), k -> new long[2]);
                    row[rs.getString(2).equals("FAILED") ? 0 : 1] += rs.getLong(3);
                });
        List<Overview.Failures> list = new ArrayList<>();
        byType.forEach((type, row) -> list.add(new Overview.Failures(type, row[0], row[1])));
        list.sort((a, b) -> Long.compare(b.failed() + b.timedOut(), a.failed() + a.timedOut()));
        return list.size() > LIST_LIMIT ? list.subList(0, LIST_LIMIT) : list;
    }

    /** The nodes, and the jobs each has claimed and runs of {@code namespaces} ({@code null}: every namespace). */
    private List<Overview.NodeRow> nodes(long now, Set<String> namespaces) {
        Map<String, long[]> work = new TreeMap<>();
        if (namespaces == null || !namespaces.isEmpty())
            jdbc.query(
                    "SELECT node, status, COUNT(*) FROM job_queue WHERE status IN ('CLAIMED', 'RUNNING')"
                            + (namespaces == null ? "" : " AND namespace IN (:ns)")
                            + " GROUP BY node, status",
                    namespaces == null ? Map.of() : Map.of("ns", namespaces),
                    rs -> {
                        if (rs.getString(1) == null) return;
                        long[] row = work.computeIfAbsent(rs.getString(1), k -> new long[2]);
                        row[rs.getString(2).equals("CLAIMED") ? 0 : 1] += rs.getLong(3);
                    });
        List<Overview.NodeRow> list = new ArrayList<>();
        Map<Integer, Long> notScanning = new LinkedHashMap<>();
        jdbc.query(
                // whether it claims and fires is the node's own row's word (its scan goes on passing while paused)
                "SELECT c.node_id, c.started_at, c.last_seen, c.health, c.last_scan, a.scanning, a.started_at"
                        + " FROM console_nodes c"
                        + " LEFT JOIN ax_nodes a ON a.node_id = c.node_id"
                        + " WHERE c.last_seen >= :since ORDER BY c.node_id LIMIT " + LIST_LIMIT,
                Map.of("since", now - 24 * HOUR),
                rs -> {
                    long[] w = work.getOrDefault(rs.getString(1), new long[2]);
                    int scanningFlag = rs.getInt(6);
                    Boolean scanning = rs.wasNull() ? null : scanningFlag != 0;
                    long lastScan = rs.getLong(5);
                    boolean alive = now - rs.getLong(3) <= NODE_ALIVE_MS;
                    if (alive && Boolean.FALSE.equals(scanning)) notScanning.put(list.size(), rs.getLong(7));
                    list.add(new Overview.NodeRow(
                            rs.getString(1),
                            Instant.ofEpochMilli(rs.getLong(2)),
                            Instant.ofEpochMilli(rs.getLong(3)),
                            alive,
                            // what a node last said of itself holds only while it still says it
                            alive ? rs.getString(4) : Overview.GONE,
                            lastScan == 0 ? null : Instant.ofEpochMilli(lastScan),
                            scanning,
                            null,
                            null,
                            w[0],
                            w[1]));
                });
        // who paused a live node that does not scan, asked once the rows are read (not on the connection reading them)
        notScanning.forEach((i, startedAt) -> pauses.of(list.get(i).nodeId(), startedAt)
                .ifPresent(pause -> list.set(i, list.get(i).withPause(pause))));
        return list;
    }

    public List<Overview.WorkerRow> workers(long now) {
        return workers(now, null);
    }

    /** The workers of the apps in {@code namespaces} ({@code null}: every namespace). */
    public List<Overview.WorkerRow> workers(long now, Set<String> namespaces) {
        if (namespaces != null && namespaces.isEmpty()) return List.of();
        return jdbc.query(
                "SELECT worker_id, namespace, app, address, last_heartbeat, in_flight, capacity, cooling_until"
                        + " FROM workers"
                        + (namespaces == null ? "" : " WHERE namespace IN (:ns)")
                        + " ORDER BY namespace, app, worker_id LIMIT 500",
                namespaces == null ? Map.of() : Map.of("ns", namespaces),
                (rs, i) -> new Overview.WorkerRow(
                        rs.getString(1),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getString(4),
                        Instant.ofEpochMilli(rs.getLong(5)),
                        rs.getInt(6),
                        rs.getInt(7),
                        rs.getLong(8) > now,
                        rs.getLong(5) < now - workerSilentMs));
    }

    private Overview.SchedulesBehind schedulesBehind(long now, Set<String> namespaces) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("before", now - behindMs);
        String in = "";
        if (namespaces != null) {
            p.put("ns", namespaces);
            in = " AND namespace IN (:ns)";
        }
        Long count = jdbc.queryForObject(
                "SELECT COUNT(*) FROM schedules WHERE state = 'ACTIVE' AND next_fire_at < :before" + in, p, Long.class);
        List<Overview.Behind> oldest = jdbc.query(
                "SELECT schedule_id, name, next_fire_at FROM schedules WHERE state = 'ACTIVE' AND next_fire_at < :before"
                        + in + " ORDER BY next_fire_at LIMIT 10",
                p,
                (rs, i) -> new Overview.Behind(
                        rs.getString(1), rs.getString(2), Instant.ofEpochMilli(rs.getLong(3)), now - rs.getLong(3)));
        return new Overview.SchedulesBehind(count == null ? 0 : count, oldest);
    }

    private static Map<String, Object> params(long from, Set<String> ns) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("from", from);
        if (ns != null && !ns.isEmpty()) p.put("ns", ns);
        return p;
    }

    private static long floor(long at, long step) {
        return Math.floorDiv(at, step) * step;
    }
}
