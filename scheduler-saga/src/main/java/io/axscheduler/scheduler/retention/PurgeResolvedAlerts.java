package io.axscheduler.scheduler.retention;

import io.axscheduler.scheduler.NodeMetrics;
import io.axscheduler.scheduler.SchedulerProperties;
import io.axscheduler.scheduler.alert.AlertProperties;
import io.micrometer.core.instrument.Counter;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Deletes alerts resolved longer than {@code ax.scheduler.retention.finished-jobs} ago, as the ended jobs go: the
 * alert's events ({@code AlertRaised}, {@code AlertResolved}), its row in {@code alerts} and its notification rows, one
 * batch in one transaction. An alert raised within the rate-limit window stays whatever its age of resolve, since the
 * rule's limit counts the raises of the window. A firing alert stays until it is resolved.
 * <p>
 * A resolved alert takes no more commands (a new raise of its rule and key is a new alert), so nothing can append to a
 * stream as it goes. Every node checks; the row locks ({@code SKIP LOCKED}) split the work between them.
 */
@Component
public class PurgeResolvedAlerts {

    /**
     * The oldest resolved alerts first, by the raise index. Old firing alerts lie in the same range and are read past:
     * at most one per rule and key at a time.
     */
    private static final String OLDEST = "SELECT alert_id FROM alerts WHERE raised_at < :before AND state = 'RESOLVED'"
            + " AND resolved_at < :before ORDER BY raised_at LIMIT :limit";

    private final NamedParameterJdbcTemplate jdbc;
    private final TransactionTemplate transaction;
    private final SchedulerProperties.Retention settings;
    private final AlertProperties alerts;
    private final Counter purged;

    public PurgeResolvedAlerts(
            NamedParameterJdbcTemplate jdbc,
            TransactionTemplate transaction,
            SchedulerProperties properties,
            AlertProperties alerts,
            NodeMetrics metrics) {
        this.jdbc = jdbc;
        this.transaction = transaction;
        this.settings = properties.retention();
        this.alerts = alerts;
        this.purged = Counter.builder("ax.alerts.purged")
                .description("resolved alerts this node deleted past ax.scheduler.retention.finished-jobs")
                .register(metrics.registry());
    }

    /**
     * One check as if the database's clock read {@code nowMs}: deletes resolved alerts past the retention, oldest
     * first, up to {@code max-per-check}; returns how many it deleted.
     */
    public synchronized int purgeOnce(long nowMs) {
        if (settings.finishedJobs().isZero()) return 0;
        long before = nowMs
                - Math.max(
                        settings.finishedJobs().toMillis(), alerts.rateLimit().windowMs());
        CheckBudget budget = new CheckBudget(settings.maxPerCheck(), 20L * settings.maxPerCheck());
        while (budget.left()) {
            int limit = (int) Math.min(settings.batchSize(), budget.deletes);
            List<String> oldest = jdbc.queryForList(OLDEST, Map.of("before", before, "limit", limit), String.class);
            budget.reads -= oldest.size();
            if (oldest.isEmpty()) break;
            int gone = transaction.execute(tx -> deleteBatch(oldest, before));
            budget.deleted += gone;
            budget.deletes -= gone;
            purged.increment(gone);
            // fewer than asked: the last of them; or another node holds some of the batch and takes them
            if (oldest.size() < limit || gone < oldest.size()) break;
        }
        return (int) budget.deleted;
    }

    private int deleteBatch(List<String> candidates, long before) {
        List<String> ids = jdbc.queryForList(
                "SELECT alert_id FROM alerts WHERE alert_id IN (:ids) AND state = 'RESOLVED' AND resolved_at < :before"
                        + " FOR UPDATE SKIP LOCKED",
                Map.of("ids", candidates, "before", before),
                String.class);
        if (ids.isEmpty()) return 0;
        Map<String, Object> byIds = Map.of("ids", ids);
        // an alert's stream is its raise and its resolve: never snapshotted (see command-side's Snapshots)
        jdbc.update("DELETE FROM DomainEventEntry WHERE aggregateIdentifier IN (:ids)", byIds);
        jdbc.update("DELETE FROM alert_notifications WHERE alert_id IN (:ids)", byIds);
        jdbc.update("DELETE FROM alerts WHERE alert_id IN (:ids)", byIds);
        return ids.size();
    }
}
