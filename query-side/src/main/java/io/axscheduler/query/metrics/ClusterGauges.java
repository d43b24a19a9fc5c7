package io.axscheduler.query.metrics;

import io.axscheduler.api.Namespaces;
import io.axscheduler.api.observe.BoundedLabels;
import io.axscheduler.query.job.OldestDue;
import io.axscheduler.query.observe.LivenessProperties;
import io.axscheduler.query.observe.ObserveProperties;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Cluster-wide gauges read from the read models every {@code ax.observe.gauge-refresh-ms}, the same on every node:
 * jobs by live status, the oldest due job's wait, schedules behind their next fire time, workers by state. Each query
 * is an index range or an index dive: live statuses only (the terminal ones grow without bound; their totals are
 * {@code ax_jobs_finished_total}), the oldest due job one index entry a namespace ({@link OldestDue}).
 */
@Component
public class ClusterGauges implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ClusterGauges.class);
    static final String NOW_MS = "ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000)";
    static final List<String> LIVE_STATUSES = List.of("WAITING", "RETRY_WAITING", "CLAIMED", "RUNNING");
    static final List<String> WORKER_STATES = List.of("live", "cooling", "silent");

    private final NamedParameterJdbcTemplate jdbc;
    private final long refreshMs;
    private final long behindMs;
    private final long workerSilentMs;
    private final MultiGauge jobs;
    private final MultiGauge oldestWaiting;
    private final MultiGauge behind;
    private final MultiGauge workers;
    private final BoundedLabels apps = new BoundedLabels(200);
    /**
     * Every (namespace, app) shown since this node started: an app whose workers all left still shows its zeros.
     */
    private final Set<List<String>> appsShown = new TreeSet<>(
            java.util.Comparator.comparing((List<String> k) -> k.get(0)).thenComparing(k -> k.get(1)));

    private ScheduledExecutorService timer;

    public ClusterGauges(
            ObjectProvider<MeterRegistry> registry,
            NamedParameterJdbcTemplate jdbc,
            ObserveProperties observe,
            LivenessProperties liveness) {
        MeterRegistry meters = registry.getIfAvailable(SimpleMeterRegistry::new);
        this.jdbc = jdbc;
        this.refreshMs = observe.gaugeRefreshMs();
        this.behindMs = observe.scheduleBehindMs();
        // two heartbeats missed: silent, before the registry removes the worker at its limit
        this.workerSilentMs = liveness.workers().quietMs();
        this.jobs = MultiGauge.builder("ax.jobs")
                .description("jobs in each live status, cluster-wide")
                .register(meters);
        this.oldestWaiting = MultiGauge.builder("ax.jobs.oldest.waiting.seconds")
                .description("how long the longest-waiting due job has waited, cluster-wide")
                .register(meters);
        this.behind = MultiGauge.builder("ax.schedules.behind")
                .description("active schedules whose next fire time is older than ax.observe.schedule-behind-ms")
                .register(meters);
        this.workers = MultiGauge.builder("ax.workers")
                .description("registered remote workers by namespace, app and state, cluster-wide")
                .register(meters);
    }

    /** Reads every gauge again now; the timer calls it, and tests to see a change at once. */
    public void refresh() {
        // a namespace with no live job still shows its zero, so a series does not vanish when its queue empties
        Set<String> namespaces = new TreeSet<>(jdbc.queryForList(
                "SELECT DISTINCT namespace FROM schedules UNION SELECT DISTINCT namespace FROM workers"
                        + " UNION SELECT :default",
                Map.of("default", Namespaces.DEFAULT),
                String.class));
        // two dives into the namespace index: with one namespace in job_queue (or none) the counts stay index-only
        // ranges; only with several are rows read to group them
        Map<String, Object> span =
                jdbc.queryForMap("SELECT MIN(namespace) lo, MAX(namespace) hi FROM job_queue", Map.of());
        String only = span.get("lo") == null || span.get("lo").equals(span.get("hi")) ? (String) span.get("lo") : null;
        boolean one = span.get("lo") == null || only != null;
        Map<List<String>, Long> byStatus = new HashMap<>();
        for (String status : LIVE_STATUSES) {
            if (one) {
                Long count = jdbc.queryForObject(
                        "SELECT COUNT(*) FROM job_queue WHERE status = :status", Map.of("status", status), Long.class);
                byStatus.put(List.of(only == null ? Namespaces.DEFAULT : only, status), count);
                continue;
            }
            jdbc.query(
                    "SELECT namespace, COUNT(*) FROM job_queue WHERE status = :status GROUP BY namespace",
                    Map.of("status", status),
                    rs -> {
                        byStatus.put(List.of(rs.getString(1), status), rs.getLong(2));
                    });
        }
        byStatus.keySet().forEach(key -> namespaces.add(key.get(0)));
        List<MultiGauge.Row<?>> jobRows = new ArrayList<>();
        for (String namespace : namespaces) {
            for (String status : LIVE_STATUSES) {
                long count = byStatus.getOrDefault(List.of(namespace, status), 0L);
                jobRows.add(MultiGauge.Row.of(Tags.of("namespace", namespace, "status", status), count));
            }
        }
        jobs.register(jobRows, true);

        Map<String, Long> oldestDue = OldestDue.byNamespace(jdbc);
        Long now = jdbc.queryForObject("SELECT " + NOW_MS, Map.of(), Long.class);
        List<MultiGauge.Row<?>> waitedRows = new ArrayList<>();
        for (String namespace : namespaces) {
            Long due = oldestDue.get(namespace);
            double waited = due == null ? 0 : Math.max(0, now - due) / 1000.0;
            waitedRows.add(MultiGauge.Row.of(Tags.of("namespace", namespace), waited));
        }
        oldestWaiting.register(waitedRows, true);

        Map<String, Long> late = new HashMap<>();
        jdbc.query(
                "SELECT namespace, COUNT(*) FROM schedules WHERE state = 'ACTIVE' AND next_fire_at < " + NOW_MS
                        + " - :behind GROUP BY namespace",
                Map.of("behind", behindMs),
                rs -> {
                    late.put(rs.getString(1), rs.getLong(2));
                });
        List<MultiGauge.Row<?>> behindRows = new ArrayList<>();
        for (String namespace : namespaces) {
            behindRows.add(MultiGauge.Row.of(Tags.of("namespace", namespace), late.getOrDefault(namespace, 0L)));
        }
        behind.register(behindRows, true);

        Map<List<String>, Integer> byState = new HashMap<>();
        jdbc.query(
                "SELECT namespace, app, CASE WHEN last_heartbeat < " + NOW_MS + " - :silent THEN 'silent' WHEN"
                        + " cooling_until > " + NOW_MS + " THEN 'cooling' ELSE 'live' END state FROM workers",
                Map.of("silent", workerSilentMs),
                rs -> {
                    // one team's app of the same name as another's is counted apart: an alert on one is not fooled
                    byState.merge(List.of(rs.getString(1), apps.of(rs.getString(2)), rs.getString(3)), 1, Integer::sum);
                });
        // every state of every app seen, zeros included: an alert on ax_workers{state="live"} < 1 needs the series to
        // stay when the app's last worker is removed
        List<MultiGauge.Row<?>> workerRows = new ArrayList<>();
        synchronized (appsShown) {
            byState.keySet().forEach(key -> appsShown.add(List.of(key.get(0), key.get(1))));
            for (List<String> app : appsShown) {
                for (String state : WORKER_STATES) {
                    int n = byState.getOrDefault(List.of(app.get(0), app.get(1), state), 0);
                    workerRows.add(
                            MultiGauge.Row.of(Tags.of("namespace", app.get(0), "app", app.get(1), "state", state), n));
                }
            }
        }
        workers.register(workerRows, true);
    }

    private void tick() {
        try {
            refresh();
        } catch (RuntimeException e) {
            log.warn("could not refresh the cluster gauges: {}", e.toString());
        }
    }

    @Override
    public void start() {
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ax-gauges");
            t.setDaemon(true);
            return t;
        });
        // the first reading waits a period: a starting node has its own work to do in its first seconds
        timer.scheduleWithFixedDelay(this::tick, refreshMs, refreshMs, TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() {
        if (timer != null) timer.shutdownNow();
        timer = null;
    }

    @Override
    public boolean isRunning() {
        return timer != null;
    }
}
