package io.axscheduler.scheduler.alert;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.namedparam.SqlParameterSource;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Evaluates every alert rule every {@code ax.alerts.evaluate-ms} on exactly one node: the one holding the lease row
 * of {@code alert_evaluator} (renewed each pass, taken over by another node once it lapses; a stopping node hands it
 * back). For each rule it compares the keys whose condition holds with the rule's firing alerts (the alerts read
 * model): a key that has held for {@code forMs} and does not fire is raised, a firing key that no longer holds is
 * resolved. When a key was first seen holding is kept in {@code alert_pending} in database time, so a node taking the
 * evaluation over raises at the instant the previous one would have. A raise or a resolve is a command (AlertRaised /
 * AlertResolved in the event store) and, per channel, a job of type {@value DeliverAlert#JOB_TYPE} keyed by alert,
 * state and channel, in one transaction: delivery is retried with backoff and visible like any job, and made once.
 * When no node scans, no such job would run, so this node tells the channels itself and makes a job only for a channel
 * it could not reach. Past the rate limits ({@link AlertProperties.RateLimit}) an alert is still raised and recorded,
 * but the channels over their limit are not told (nor of its resolve).
 */
@Component
public class EvaluateAlerts implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(EvaluateAlerts.class);

    /** Rules already said to hold for more keys than alerts fire for. */
    private final java.util.Set<String> capped = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {};
    static final long MIN_LEASE_MS = 15_000;
    /** How often rows past every window (notifications, failures) are removed. */
    static final long PRUNE_EVERY_MS = 60_000;

    static final int PRUNE_BATCH = 1000;

    private final NamedParameterJdbcTemplate jdbc;
    private final TransactionTemplate transaction;
    private final SchedulerCommands commands;
    private final AlertRules rules;
    private final AlertConditions conditions;
    private final AlertProperties properties;
    private final DeliverAlert deliver;
    private final ObjectMapper json;
    private final Clock clock;
    private final String node;

    private ScheduledExecutorService timer;
    private volatile long passes;
    private long prunedAt;

    public EvaluateAlerts(
            NamedParameterJdbcTemplate jdbc,
            TransactionTemplate transaction,
            SchedulerCommands commands,
            AlertRules rules,
            AlertConditions conditions,
            AlertProperties properties,
            Clock clock,
            NodeMetrics metrics,
            DeliverAlert deliver,
            ObjectMapper json) {
        this.jdbc = jdbc;
        this.deliver = deliver;
        this.transaction = transaction;
        this.commands = commands;
        this.rules = rules;
        this.conditions = conditions;
        this.properties = properties;
        this.json = json;
        this.clock = clock;
        this.node = metrics.node();
    }

    /** Passes this node evaluated the rules in (it held the lease). */
    public long passes() {
        return passes;
    }

    /** One pass on the caller's thread: evaluates every rule when this node holds (or takes) the lease. */
    public boolean evaluateOnce() {
        if (!takeLease()) return false;
        long nowMs = jdbc.queryForObject("SELECT " + DatabaseTime.NOW_MS, Map.of(), Long.class);
        List<AlertRule> all = rules.all();
        for (AlertRule rule : all) {
            try {
                evaluate(rule, nowMs);
            } catch (RuntimeException e) {
                log.warn("alert rule {} could not be evaluated; tried again next pass: {}", rule.name(), e.toString());
            }
        }
        resolveOrphans(all, nowMs);
        if (nowMs - prunedAt >= PRUNE_EVERY_MS) prune(all, nowMs);
        passes++;
        return true;
    }

    /**
     * Removes what no window reaches any more: notifications older than the longest rate window, failures older than
     * a day (the longest event window), pending conditions that are stale or of removed rules.
     */
    private void prune(List<AlertRule> all, long nowMs) {
        try {
            jdbc.update(
                    "DELETE FROM alert_notifications WHERE notified_at < :cut LIMIT " + PRUNE_BATCH,
                    Map.of("cut", nowMs - AlertProperties.MAX_WINDOW_MS));
            jdbc.update(
                    "DELETE FROM job_failures WHERE failed_at < :cut LIMIT " + PRUNE_BATCH,
                    Map.of("cut", nowMs - AlertProperties.MAX_WINDOW_MS));
            jdbc.update(
                    "DELETE FROM schedule_misfires WHERE skipped_at < :cut LIMIT " + PRUNE_BATCH,
                    Map.of("cut", nowMs - AlertProperties.MAX_WINDOW_MS));
            List<String> names = all.stream().map(AlertRule::name).toList();
            Map<String, Object> p = new HashMap<>(Map.of("stale", nowMs - staleMs()));
            if (!names.isEmpty()) p.put("names", names);
            jdbc.update(
                    "DELETE FROM alert_pending WHERE seen_at < :stale"
                            + (names.isEmpty() ? "" : " OR rule NOT IN (:names)"),
                    p);
            prunedAt = nowMs;
        } catch (RuntimeException e) {
            log.debug("could not prune the alert tables; tried again later: {}", e.toString());
        }
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

    /**
     * A pending condition not seen for this long is stale (no node evaluated for longer than a failover takes): it
     * may have cleared in between, so its forMs starts again.
     */
    private long staleMs() {
        return leaseMs() + 2 * properties.evaluateMs();
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
        Map<String, Long> pending = pendingSince(rule.name(), nowMs);
        Map<String, AlertConditions.Violation> holding = conditions.evaluate(rule, nowMs, openSince, pending.keySet());
        if (holding.size() >= AlertConditions.MAX_KEYS && capped.add(rule.name())) {
            log.warn(
                    "alert rule {} holds for {} keys or more; alerts fire for at most {} of them at a time (said once)",
                    rule.name(),
                    AlertConditions.MAX_KEYS,
                    AlertConditions.MAX_KEYS);
        }
        List<String> cleared = pending.keySet().stream()
                .filter(k -> !holding.containsKey(k) || openIds.containsKey(k))
                .toList();
        if (!cleared.isEmpty()) {
            jdbc.update(
                    "DELETE FROM alert_pending WHERE rule = :rule AND alert_key IN (:keys)",
                    Map.of("rule", rule.name(), "keys", cleared));
        }
        List<String> waiting =
                holding.keySet().stream().filter(k -> !openIds.containsKey(k)).toList();
        if (rule.forMsOrZero() > 0 && !waiting.isEmpty()) holdOn(rule.name(), waiting, nowMs);
        for (String key : waiting) {
            long since = pending.getOrDefault(key, nowMs);
            if (nowMs - since >= rule.forMsOrZero()) raise(rule, key, holding.get(key), since, nowMs);
        }
        for (Map.Entry<String, String> open : openIds.entrySet()) {
            if (!holding.containsKey(open.getKey())) resolve(rule, open.getKey(), open.getValue(), nowMs);
        }
    }

    /** When each pending key of {@code rule} was first seen holding; stale rows are left out (they start again). */
    private Map<String, Long> pendingSince(String rule, long nowMs) {
        Map<String, Long> since = new HashMap<>();
        jdbc.query(
                "SELECT alert_key, since_at FROM alert_pending WHERE rule = :rule AND seen_at >= :fresh LIMIT 1000",
                Map.of("rule", rule, "fresh", nowMs - staleMs()),
                rs -> {
                    since.put(rs.getString(1), rs.getLong(2));
                });
        return since;
    }

    /**
     * Records that {@code keys} hold now: a new key (or a stale one) from now, a known one keeps its first instant.
     * One batch per rule and pass.
     */
    private void holdOn(String rule, List<String> keys, long nowMs) {
        jdbc.batchUpdate(
                "INSERT INTO alert_pending (rule, alert_key, since_at, seen_at) VALUES (:rule, :key, :now, :now)"
                        + " ON DUPLICATE KEY UPDATE since_at = IF(seen_at < :fresh, VALUES(since_at), since_at),"
                        + " seen_at = VALUES(seen_at)",
                keys.stream()
                        .map(k -> new MapSqlParameterSource()
                                .addValue("rule", rule)
                                .addValue("key", k)
                                .addValue("now", nowMs)
                                .addValue("fresh", nowMs - staleMs()))
                        .toArray(SqlParameterSource[]::new));
    }

    /**
     * The rule's channels this raise may tell: none once the rule has notified its limit within the window, else
     * those told of fewer raises than their own limit.
     */
    private List<String> tellable(AlertRule rule, long nowMs, List<String> withheld) {
        long since = nowMs - properties.rateLimit().windowMs();
        Long sent = jdbc.queryForObject(
                "SELECT COUNT(*) FROM alerts WHERE rule = :rule AND raised_at >= :since AND notified = 1",
                Map.of("rule", rule.name(), "since", since),
                Long.class);
        if (sent != null && sent >= properties.ruleLimit(rule)) {
            withheld.addAll(rule.channels());
            return List.of();
        }
        List<String> told = new ArrayList<>();
        for (String channel : rule.channels()) {
            Long toChannel = jdbc.queryForObject(
                    "SELECT COUNT(*) FROM alert_notifications WHERE channel = :channel AND notified_at >= :since",
                    Map.of("channel", channel, "since", since),
                    Long.class);
            if (toChannel == null || toChannel < properties.channelLimit(channel)) told.add(channel);
            else withheld.add(channel);
        }
        return told;
    }

    private void raise(AlertRule rule, String key, AlertConditions.Violation violation, long since, long nowMs) {
        List<String> withheld = new ArrayList<>();
        List<String> told = tellable(rule, nowMs, withheld);
        Map<String, Object> details = new LinkedHashMap<>(violation.details());
        if (rule.forMsOrZero() > 0) details.put("holdingSince", Instant.ofEpochMilli(since));
        if (!withheld.isEmpty()) details.put("rateLimited", withheld);
        String alertId = TimeOrderedIds.next(clock.millis());
        String message = "[" + rule.name() + "] " + violation.message();
        boolean direct = !told.isEmpty() && !anyNodeScanning();
        transaction.executeWithoutResult(tx -> {
            jdbc.update(
                    "DELETE FROM alert_pending WHERE rule = :rule AND alert_key = :key",
                    Map.of("rule", rule.name(), "key", key));
            commands.sendAndWait(new RaiseAlert(
                    alertId,
                    rule.name(),
                    rule.type(),
                    key,
                    message,
                    details,
                    told,
                    !told.isEmpty(),
                    rule.filter().namespace()));
            if (!direct) submitDeliveries(alertId, rule, told, "FIRING", message, details, nowMs);
        });
        if (direct) deliverNow(alertId, rule, told, "FIRING", message, details, nowMs);
        log.info(
                "alert {} raised{}: {}",
                alertId,
                withheld.isEmpty() ? "" : " (rate-limited, not sent to " + withheld + ")",
                message);
    }

    private void resolve(AlertRule rule, String key, String alertId, long nowMs) {
        List<String> told = rule == null ? List.of() : toldOf(alertId, rule);
        // the raise's own words after the key: a key alone (a schedule's id) does not say what it was about
        String raised = jdbc
                .queryForList("SELECT message FROM alerts WHERE alert_id = :id", Map.of("id", alertId), String.class)
                .stream()
                .findFirst()
                .map(m -> m.replaceFirst("^\\[[^\\]]*\\] ", ""))
                .orElse(null);
        String message = "[" + (rule == null ? "removed rule" : rule.name()) + "] resolved: " + key
                + (raised == null ? "" : " (raised as: " + raised + ")");
        boolean direct = !told.isEmpty() && !anyNodeScanning();
        transaction.executeWithoutResult(tx -> {
            commands.sendAndWait(new ResolveAlert(alertId, message));
            if (!direct) submitDeliveries(alertId, rule, told, "RESOLVED", message, Map.of("key", key), nowMs);
        });
        if (direct) deliverNow(alertId, rule, told, "RESOLVED", message, Map.of("key", key), nowMs);
        log.info("alert {} resolved: {}", alertId, message);
    }

    /**
     * The channels told of the alert's raise (the rule's, for an alert recorded before they were kept) that are still
     * configured: a channel removed from the properties meanwhile cannot be told.
     */
    private List<String> toldOf(String alertId, AlertRule rule) {
        List<List<String>> told =
                jdbc.query("SELECT notified, told FROM alerts WHERE alert_id = :id", Map.of("id", alertId), (rs, i) -> {
                    if (rs.getInt(1) != 1) return List.of();
                    String channels = rs.getString(2);
                    return channels == null ? rule.channels() : readList(channels);
                });
        return told.isEmpty()
                ? List.of()
                : told.get(0).stream()
                        .filter(properties.channels()::containsKey)
                        .toList();
    }

    private List<String> readList(String text) {
        try {
            return json.readValue(text, STRINGS);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("alerts holds unreadable JSON", e);
        }
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
            String alertId,
            AlertRule rule,
            List<String> channels,
            String state,
            String message,
            Map<String, Object> details,
            long nowMs) {
        for (String channel : channels) {
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
            String alertId,
            AlertRule rule,
            List<String> channels,
            String state,
            String message,
            Map<String, Object> details,
            long nowMs) {
        for (String channel : channels) submitDelivery(alertId, rule, state, message, details, nowMs, channel);
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
                io.axscheduler.api.alert.AlertJobKeys.of(alertId, state, channel),
                DeliverAlert.JOB_TYPE,
                params,
                0,
                Instant.ofEpochMilli(nowMs),
                new RetryPolicy(properties.deliveryRetries(), Backoff.exponential(1_000, 2.0, 60_000)),
                2 * properties.deliveryTimeoutMs() + 5_000,
                null,
                null,
                null,
                // what an alert says is its rule's viewers' to read, and paging is not a namespace's to switch off
                io.axscheduler.api.Namespaces.SYSTEM));
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
