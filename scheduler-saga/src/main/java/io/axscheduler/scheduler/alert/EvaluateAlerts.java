package io.axscheduler.scheduler.alert;

import io.axscheduler.api.TimeOrderedIds;
import io.axscheduler.api.alert.RaiseAlert;
import io.axscheduler.api.alert.ResolveAlert;
import io.axscheduler.api.job.Backoff;
import io.axscheduler.api.job.RetryPolicy;
import io.axscheduler.api.job.SubmitJob;
import io.axscheduler.scheduler.DatabaseTime;
import io.axscheduler.scheduler.NodeMetrics;
import io.axscheduler.scheduler.SchedulerCommands;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Evaluates every alert rule every {@code ax.alerts.evaluate-ms} on exactly one node: the one holding the lease row
 * of {@code alert_evaluator} (renewed each pass, taken over by another node once it lapses; a stopping node hands it
 * back). For each rule it compares the keys whose condition holds with the rule's firing alerts (the alerts read
 * model): a key that has held for {@code forMs} and does not fire is raised, a firing key that no longer holds is
 * resolved. A raise or a resolve is a command (AlertRaised / AlertResolved in the event store) and, per channel, a job
 * of type {@value DeliverAlert#JOB_TYPE} keyed by alert, state and channel, in one transaction: delivery is retried
 * with backoff and visible like any job, and made once. When no node scans, no such job would run, so this node
 * tells the channels itself and makes a job only for a channel it could not reach. Past a rule's rate limit an alert
 * is still raised and recorded, but its channels are not told (nor of its resolve).
 */
@Component
public class EvaluateAlerts implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(EvaluateAlerts.class);
    static final long MIN_LEASE_MS = 15_000;

    private final NamedParameterJdbcTemplate jdbc;
    private final TransactionTemplate transaction;
    private final SchedulerCommands commands;
    private final AlertRules rules;
    private final AlertConditions conditions;
    private final AlertProperties properties;
    private final DeliverAlert deliver;
    private final Clock clock;
    private final String node;
    /** rule → key → when (database ms) its condition was first seen holding; reset when another node leads. */
    private final Map<String, Map<String, Long>> pending = new ConcurrentHashMap<>();

    private ScheduledExecutorService timer;
    private volatile long passes;

    public EvaluateAlerts(
            NamedParameterJdbcTemplate jdbc,
            TransactionTemplate transaction,
            SchedulerCommands commands,
            AlertRules rules,
            AlertConditions conditions,
            AlertProperties properties,
            Clock clock,
            NodeMetrics metrics,
            DeliverAlert deliver) {
        this.jdbc = jdbc;
        this.deliver = deliver;
        this.transaction = transaction;
        this.commands = commands;
        this.rules = rules;
        this.conditions = conditions;
        this.properties = properties;
        this.clock = clock;
        this.node = metrics.node();
    }

    /** Passes this node evaluated the rules in (it held the lease). */
    public long passes() {
        return passes;
    }

    /** One pass on the caller's thread: evaluates every rule when this node holds (or takes) the lease. */
    public boolean evaluateOnce() {
        if (!takeLease()) {
            pending.clear();
            return false;
        }
        long nowMs = jdbc.queryForObject("SELECT " + DatabaseTime.NOW_MS, Map.of(), Long.class);
        List<AlertRule> all = rules.all();
        pending.keySet().retainAll(all.stream().map(AlertRule::name).toList());
        for (AlertRule rule : all) {
            try {
                evaluate(rule, nowMs);
            } catch (RuntimeException e) {
                log.warn("alert rule {} could not be evaluated; tried again next pass: {}", rule.name(), e.toString());
            }
        }
        resolveOrphans(all, nowMs);
        passes++;
        return true;
    }

    /** Alerts of rules that were removed while they fired are resolved, untold (the rule named the channels). */
    private void resolveOrphans(List<AlertRule> all, long nowMs) {
        List<String> names = all.stream().map(AlertRule::name).toList();
        jdbc.query(
                        "SELECT alert_id, alert_key, rule FROM alerts WHERE state = 'FIRING'"
                                + (names.isEmpty() ? "" : " AND rule NOT IN (:names)") + " LIMIT 100",
                        names.isEmpty() ? Map.of() : Map.of("names", names),
                        (rs, i) -> List.of(rs.getString(1), rs.getString(2)))
                .forEach(orphan -> {
                    try {
                        resolve(null, orphan.get(1), orphan.get(0), nowMs);
                    } catch (RuntimeException e) {
                        log.warn("could not resolve alert {} of a removed rule: {}", orphan.get(0), e.toString());
                    }
                });
    }

    /**
     * How long the lease outlives a pass: three passes, and at least {@value #MIN_LEASE_MS} ms, so a node held up by
     * a busy machine or a GC pause does not lose it to another that then evaluates beside it.
     */
    private long leaseMs() {
        return Math.max(3 * properties.evaluateMs(), MIN_LEASE_MS);
    }

    private boolean takeLease() {
        return jdbc.update(
                        "UPDATE alert_evaluator SET node_id = :node, lease_until = " + DatabaseTime.NOW_MS
                                + " + :lease WHERE id = 1 AND (node_id = :node OR lease_until < " + DatabaseTime.NOW_MS
                                + ")",
                        Map.of("node", node, "lease", leaseMs()))
                == 1;
    }

    private void evaluate(AlertRule rule, long nowMs) {
        Map<String, String> openIds = new HashMap<>();
        Map<String, Long> openSince = new HashMap<>();
        jdbc.query(
                "SELECT alert_id, alert_key, raised_at FROM alerts WHERE rule = :rule AND state = 'FIRING' LIMIT 1000",
                Map.of("rule", rule.name()),
                rs -> {
                    openIds.put(rs.getString(2), rs.getString(1));
                    openSince.put(rs.getString(2), rs.getLong(3));
                });
        Map<String, AlertConditions.Violation> holding = conditions.evaluate(rule, nowMs, openSince);
        Map<String, Long> seen = pending.computeIfAbsent(rule.name(), r -> new ConcurrentHashMap<>());
        seen.keySet().retainAll(holding.keySet());
        for (Map.Entry<String, AlertConditions.Violation> e : holding.entrySet()) {
            if (openIds.containsKey(e.getKey())) continue;
            long since = seen.computeIfAbsent(e.getKey(), k -> nowMs);
            if (nowMs - since >= rule.forMsOrZero()) {
                raise(rule, e.getKey(), e.getValue(), nowMs);
                seen.remove(e.getKey());
            }
        }
        for (Map.Entry<String, String> open : openIds.entrySet()) {
            if (!holding.containsKey(open.getKey())) resolve(rule, open.getKey(), open.getValue(), nowMs);
        }
    }

    private void raise(AlertRule rule, String key, AlertConditions.Violation violation, long nowMs) {
        Long sent = jdbc.queryForObject(
                "SELECT COUNT(*) FROM alerts WHERE rule = :rule AND raised_at >= :since AND notified = 1",
                Map.of("rule", rule.name(), "since", nowMs - properties.rateWindowMs()),
                Long.class);
        boolean notify = sent == null || sent < properties.maxPerRule();
        String alertId = TimeOrderedIds.next(clock.millis());
        String message = "[" + rule.name() + "] " + violation.message();
        boolean direct = notify && !anyNodeScanning();
        transaction.executeWithoutResult(tx -> {
            commands.sendAndWait(new RaiseAlert(
                    alertId, rule.name(), rule.type(), key, message, violation.details(), rule.channels(), notify));
            if (notify && !direct) submitDeliveries(alertId, rule, "FIRING", message, violation.details(), nowMs);
        });
        if (direct) deliverNow(alertId, rule, "FIRING", message, violation.details(), nowMs);
        log.info("alert {} raised{}: {}", alertId, notify ? "" : " (rate-limited, not sent)", message);
    }

    private void resolve(AlertRule rule, String key, String alertId, long nowMs) {
        Integer notified = jdbc.queryForObject(
                "SELECT notified FROM alerts WHERE alert_id = :id", Map.of("id", alertId), Integer.class);
        boolean notify = rule != null && notified != null && notified == 1;
        String message = "[" + (rule == null ? "removed rule" : rule.name()) + "] resolved: " + key;
        boolean direct = notify && !anyNodeScanning();
        transaction.executeWithoutResult(tx -> {
            commands.sendAndWait(new ResolveAlert(alertId, message));
            if (notify && !direct) submitDeliveries(alertId, rule, "RESOLVED", message, Map.of("key", key), nowMs);
        });
        if (direct) deliverNow(alertId, rule, "RESOLVED", message, Map.of("key", key), nowMs);
        log.info("alert {} resolved: {}", alertId, message);
    }

    /**
     * Whether a node scans, so a delivery job would run. When none does (the very thing a stalled-scanner alert
     * reports), this node tells the channels itself, and only a channel it could not reach gets a delivery job, to
     * be retried once scanning is back.
     */
    private boolean anyNodeScanning() {
        Long scanning = jdbc.queryForObject(
                "SELECT COUNT(*) FROM ax_nodes WHERE scanning = 1 AND reported_at >= " + DatabaseTime.NOW_MS
                        + " - :silent AND last_scan_at >= " + DatabaseTime.NOW_MS + " - :silent",
                Map.of("silent", 3 * properties.evaluateMs() + 5_000),
                Long.class);
        return scanning != null && scanning > 0;
    }

    private void deliverNow(
            String alertId, AlertRule rule, String state, String message, Map<String, Object> details, long nowMs) {
        for (String channel : rule.channels()) {
            try {
                deliver.deliver(channel, body(alertId, rule, state, message, details, nowMs));
            } catch (Exception e) {
                log.warn(
                        "alert {} could not be told to {} directly; a delivery job retries it: {}",
                        alertId,
                        channel,
                        e.toString());
                transaction.executeWithoutResult(
                        tx -> submitDelivery(alertId, rule, state, message, details, nowMs, channel));
            }
        }
    }

    private void submitDeliveries(
            String alertId, AlertRule rule, String state, String message, Map<String, Object> details, long nowMs) {
        for (String channel : rule.channels()) submitDelivery(alertId, rule, state, message, details, nowMs, channel);
    }

    private static Map<String, Object> body(
            String alertId, AlertRule rule, String state, String message, Map<String, Object> details, long nowMs) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("alertId", alertId);
        body.put("rule", rule.name());
        body.put("type", rule.type().name());
        body.put("state", state);
        body.put("message", message);
        body.put("details", details);
        body.put("at", Instant.ofEpochMilli(nowMs).toString());
        return body;
    }

    private void submitDelivery(
            String alertId,
            AlertRule rule,
            String state,
            String message,
            Map<String, Object> details,
            long nowMs,
            String channel) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put(DeliverAlert.CHANNEL, channel);
        params.put(DeliverAlert.ALERT, body(alertId, rule, state, message, details, nowMs));
        commands.sendAndWait(new SubmitJob(
                TimeOrderedIds.next(clock.millis()),
                "alert:" + alertId + ":" + state + ":" + channel,
                DeliverAlert.JOB_TYPE,
                params,
                0,
                Instant.ofEpochMilli(nowMs),
                new RetryPolicy(properties.deliveryRetries(), Backoff.exponential(1_000, 2.0, 60_000)),
                2 * properties.deliveryTimeoutMs() + 5_000,
                null,
                null,
                null));
    }

    @Override
    public void start() {
        if (!properties.enabled()) return;
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ax-alerts");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(
                () -> {
                    try {
                        evaluateOnce();
                    } catch (RuntimeException e) {
                        log.warn("alert evaluation failed; tried again next pass: {}", e.toString());
                    }
                },
                properties.evaluateMs(),
                properties.evaluateMs(),
                TimeUnit.MILLISECONDS);
    }

    /** Hands the lease back so another node takes over at its next pass. */
    @Override
    public void stop() {
        if (timer == null) return;
        timer.shutdownNow();
        try {
            timer.awaitTermination(10, TimeUnit.SECONDS);
            jdbc.update(
                    "UPDATE alert_evaluator SET lease_until = 0 WHERE id = 1 AND node_id = :node",
                    Map.of("node", node));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.debug("could not hand back the alert lease: {}", e.toString());
        }
        timer = null;
    }

    @Override
    public boolean isRunning() {
        return timer != null;
    }

    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 1;
    }
}
