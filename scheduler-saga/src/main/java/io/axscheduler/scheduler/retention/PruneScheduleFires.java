package io.axscheduler.scheduler.retention;

import io.axscheduler.api.IsoInstants;
import io.axscheduler.api.schedule.ScheduleArmed;
import io.axscheduler.api.schedule.ScheduleFireQueued;
import io.axscheduler.api.schedule.ScheduleFireSkipped;
import io.axscheduler.api.schedule.ScheduleFired;
import io.axscheduler.scheduler.NodeMetrics;
import io.axscheduler.scheduler.SchedulerProperties;
import io.micrometer.core.instrument.Counter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Deletes a schedule's records of its fires (fired, skipped, held back, armed) older than
 * {@code ax.scheduler.retention.finished-jobs}: a schedule gains one a fire for as long as it lives, and its fires'
 * jobs go at that age anyway. Everything else of the schedule (made, changed, paused, resumed, deleted) stays.
 * <p>
 * Only records the schedule's state no longer needs go: those before its snapshot (a load reads the snapshot and the
 * events after it), from the start of its stream up to its first event within the retention (a prefix, whatever the
 * nodes' clocks did), but for its newest fire and its newest record of any kind. Should a snapshot ever not load, the
 * events left replay to the same state: a record sets the next fire time (the newest record, kept, sets it last, or a
 * change after it), a fire sets the last job (the newest fire, kept), and a held-back fire is released by a later fire
 * of kind {@code QUEUED}; a schedule holding a fire back now is left alone. A deleted schedule takes no command but its
 * deletion again: all of its old records go. The
 * sequence numbers the deleted records leave free lie below kept ones, so no append can take them, and the store reads
 * a stream past them ({@code JdbcEventTable}); a node of an older release would not, so nothing is deleted while the
 * node table knows one ({@code ax_nodes.reads_gaps}).
 * <p>
 * Only schedules with a snapshot can have such records: the walk goes over the snapshots, once an hour, on the
 * retention's thread ({@link RetentionChecks}).
 */
@Component
public class PruneScheduleFires {

    private static final Logger log = LoggerFactory.getLogger(PruneScheduleFires.class);

    /** The aggregate type Axon writes for a schedule: the aggregate class's simple name. */
    static final String SCHEDULE_TYPE = "Schedule";

    static final Set<String> FIRE_RECORDS = Set.of(
            ScheduleFired.class.getName(),
            ScheduleFireSkipped.class.getName(),
            ScheduleFireQueued.class.getName(),
            ScheduleArmed.class.getName());

    /** Schedules read a step of the walk, and a schedule's events read a step of its prefix. */
    private static final int STEP = 200;

    private final NamedParameterJdbcTemplate jdbc;
    private final SchedulerProperties.Retention settings;
    private final Counter pruned;
    /** The last schedule done in the walk under way; null: the walk waits for its next turn. */
    private String after;
    /** When the next walk starts (database time). */
    private long walkAt = Long.MIN_VALUE;

    private boolean toldOlderNodes;

    public PruneScheduleFires(NamedParameterJdbcTemplate jdbc, SchedulerProperties properties, NodeMetrics metrics) {
        this.jdbc = jdbc;
        this.settings = properties.retention();
        this.pruned = Counter.builder("ax.schedule.fires.pruned")
                .description("records of schedules' fires this node deleted past ax.scheduler.retention.finished-jobs")
                .register(metrics.registry());
    }

    /**
     * One check as if the database's clock read {@code nowMs}: goes on with the walk under way, or starts one when it
     * is due ({@link PurgeFinishedJobs#REWALK} after the last began) and no node of an older release is known, until
     * it has deleted {@code 4 × max-per-check} records or read 20 times as many rows (10,000 at least); returns how
     * many it deleted.
     */
    public synchronized int pruneOnce(long nowMs) {
        if (settings.finishedJobs().isZero()) return 0;
        if (after == null && nowMs < walkAt) return 0;
        // at every check: a node of an older release may join a walk under way
        if (olderNodesKnown()) return 0;
        if (after == null) {
            after = "";
            walkAt = nowMs + PurgeFinishedJobs.REWALK.toMillis();
        }
        String cutoff = IsoInstants.millis(
                Instant.ofEpochMilli(nowMs - settings.finishedJobs().toMillis()));
        long deletes = 4L * settings.maxPerCheck();
        // rows read at least enough for a page of schedules and a schedule's kept records, however small the deletes
        CheckBudget budget = new CheckBudget(deletes, Math.max(20 * deletes, 10_000));
        while (budget.left()) {
            List<Map<String, Object>> schedules = jdbc.queryForList(
                    "SELECT aggregateIdentifier AS id, sequenceNumber AS snapshot FROM SnapshotEventEntry"
                            + " WHERE type = :type AND aggregateIdentifier > :after"
                            + " ORDER BY aggregateIdentifier LIMIT :limit",
                    Map.of("type", SCHEDULE_TYPE, "after", after, "limit", STEP));
            budget.reads -= schedules.size();
            for (Map<String, Object> schedule : schedules) {
                String id = (String) schedule.get("id");
                boolean done;
                try {
                    done = prune(id, ((Number) schedule.get("snapshot")).longValue(), cutoff, budget);
                } catch (PessimisticLockingFailureException busy) {
                    // another node's walk deleting the same records: what is left goes at the next walk
                    done = true;
                }
                if (!done) return counted(budget.deleted);
                after = id;
            }
            if (schedules.size() < STEP) {
                after = null;
                break;
            }
        }
        return counted(budget.deleted);
    }

    /** A node row written by an older release: one that would stop reading a schedule at a gap. */
    private boolean olderNodesKnown() {
        List<String> older = jdbc.queryForList(
                "SELECT node_id FROM ax_nodes WHERE reads_gaps = 0 ORDER BY node_id LIMIT 5", Map.of(), String.class);
        if (older.isEmpty()) return false;
        if (!toldOlderNodes) {
            toldOlderNodes = true;
            log.info(
                    "schedules' old fire records are kept while the node table knows nodes of an older release {}"
                            + " (a node silent for a day is forgotten)",
                    older);
        }
        return true;
    }

    private int counted(long deleted) {
        pruned.increment(deleted);
        return (int) deleted;
    }

    /** Deletes the schedule's old fire records within the budget; false when the budget ran out first. */
    private boolean prune(String id, long snapshot, String cutoff, CheckBudget budget) {
        if (!budget.left()) return false;
        Map<String, Object> byId = Map.of("id", id);
        List<Map<String, Object>> states =
                jdbc.queryForList("SELECT state, queued_fire_at FROM schedules WHERE schedule_id = :id", byId);
        if (states.isEmpty()) return true;
        Set<Long> kept = new HashSet<>();
        // a deleted schedule takes no command but its deletion again, which its deletion event (kept) answers: all of
        // its old records go
        if (!"DELETED".equals(states.get(0).get("state"))) {
            // a fire held back now: its record stays until it is released (and may be old)
            if (states.get(0).get("queued_fire_at") != null) return true;
            Long newestFire = newest(id, Set.of(ScheduleFired.class.getName()));
            Long newestRecord = newest(id, FIRE_RECORDS);
            budget.reads -= 2;
            if (newestRecord == null) return true;
            kept.add(newestRecord);
            if (newestFire != null) kept.add(newestFire);
        }
        long from = 0;
        while (budget.left()) {
            List<Map<String, Object>> events = jdbc.queryForList(
                    "SELECT sequenceNumber, timeStamp, payloadType FROM DomainEventEntry"
                            + " WHERE aggregateIdentifier = :id AND sequenceNumber >= :from AND sequenceNumber < :below"
                            + " ORDER BY sequenceNumber LIMIT :limit",
                    Map.of("id", id, "from", from, "below", snapshot, "limit", STEP));
            budget.reads -= events.size();
            List<Long> going = new ArrayList<>();
            boolean reachedRetention = false;
            for (Map<String, Object> event : events) {
                if (((String) event.get("timeStamp")).compareTo(cutoff) >= 0) {
                    reachedRetention = true;
                    break;
                }
                long sequence = ((Number) event.get("sequenceNumber")).longValue();
                if (FIRE_RECORDS.contains((String) event.get("payloadType")) && !kept.contains(sequence))
                    going.add(sequence);
            }
            if (going.size() > budget.deletes) {
                // the rest of this schedule at the next check
                delete(id, going.subList(0, (int) budget.deletes), budget);
                return false;
            }
            delete(id, going, budget);
            if (reachedRetention || events.size() < STEP) return true;
            from = ((Number) events.get(events.size() - 1).get("sequenceNumber")).longValue() + 1;
        }
        return false;
    }

    /** The sequence number of the schedule's newest event of these types; null if none. */
    private Long newest(String id, Set<String> types) {
        List<Long> newest = jdbc.queryForList(
                "SELECT sequenceNumber FROM DomainEventEntry WHERE aggregateIdentifier = :id AND payloadType IN (:types)"
                        + " ORDER BY sequenceNumber DESC LIMIT 1",
                Map.of("id", id, "types", types),
                Long.class);
        return newest.isEmpty() ? null : newest.get(0);
    }

    private void delete(String id, List<Long> sequenceNumbers, CheckBudget budget) {
        if (sequenceNumbers.isEmpty()) return;
        budget.deleted += jdbc.update(
                "DELETE FROM DomainEventEntry WHERE aggregateIdentifier = :id AND sequenceNumber IN (:seqs)",
                Map.of("id", id, "seqs", sequenceNumbers));
        budget.deletes -= sequenceNumbers.size();
    }
}
