package io.axscheduler.scheduler.retention;

import io.axscheduler.api.schedule.ScheduleArmed;
import io.axscheduler.api.schedule.ScheduleFireQueued;
import io.axscheduler.api.schedule.ScheduleFireSkipped;
import io.axscheduler.api.schedule.ScheduleFired;
import io.axscheduler.scheduler.NodeMetrics;
import io.axscheduler.scheduler.SchedulerProperties;
import io.micrometer.core.instrument.Counter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.axonframework.common.DateTimeUtils;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Deletes a schedule's records of its fires (fired, skipped, held back, armed) older than
 * {@code ax.scheduler.retention.finished-jobs}: a schedule gains one a fire for as long as it lives, and its fires'
 * jobs go at that age anyway. Everything else of the schedule (made, changed, paused, resumed, deleted) stays.
 * <p>
 * Only records the schedule's state no longer needs go: those before its snapshot (a load reads the snapshot and the
 * events after it) and before its newest fire, from the start of its stream up to the first event within the retention
 * (a prefix, whatever the nodes' clocks did). Should a snapshot ever not load, the events left replay to the same state:
 * each deleted record only set the next fire time and the last job, which the newest fire kept sets again, or held a
 * fire back until a later release; a schedule holding a fire back now is left alone. The sequence numbers the deleted
 * records leave free lie below the kept ones, so no append can take them.
 * <p>
 * Only schedules with a snapshot can have such records: the walk goes over the snapshots, once an hour, on the
 * retention's thread ({@link PurgeFinishedJobs}).
 */
@Component
public class PruneScheduleFires {

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

    public PruneScheduleFires(NamedParameterJdbcTemplate jdbc, SchedulerProperties properties, NodeMetrics metrics) {
        this.jdbc = jdbc;
        this.settings = properties.retention();
        this.pruned = Counter.builder("ax.schedule.fires.pruned")
                .description("records of schedules' fires this node deleted past ax.scheduler.retention.finished-jobs")
                .register(metrics.registry());
    }

    /**
     * One check as if the database's clock read {@code nowMs}: goes on with the walk under way, or starts one when it
     * is due ({@link PurgeFinishedJobs#REWALK} after the last began), until it has deleted {@code 4 × max-per-check}
     * records; returns how many it deleted.
     */
    public synchronized int pruneOnce(long nowMs) {
        if (settings.finishedJobs().isZero()) return 0;
        if (after == null) {
            if (nowMs < walkAt) return 0;
            after = "";
            walkAt = nowMs + PurgeFinishedJobs.REWALK.toMillis();
        }
        String cutoff = DateTimeUtils.formatInstant(
                Instant.ofEpochMilli(nowMs - settings.finishedJobs().toMillis()));
        Budget budget = new Budget(4 * settings.maxPerCheck());
        while (budget.left > 0) {
            List<Map<String, Object>> schedules = jdbc.queryForList(
                    "SELECT aggregateIdentifier AS id, sequenceNumber AS snapshot FROM SnapshotEventEntry"
                            + " WHERE type = :type AND aggregateIdentifier > :after"
                            + " ORDER BY aggregateIdentifier LIMIT :limit",
                    Map.of("type", SCHEDULE_TYPE, "after", after, "limit", STEP));
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

    /** What one check may still delete (counted whether this node or another deleted them), and what it did. */
    private static final class Budget {
        int left;
        int deleted;

        Budget(int left) {
            this.left = left;
        }
    }

    private int counted(int deleted) {
        pruned.increment(deleted);
        return deleted;
    }

    /** Deletes the schedule's old fire records within the budget; false when the budget ran out first. */
    private boolean prune(String id, long snapshot, String cutoff, Budget budget) {
        Map<String, Object> byId = Map.of("id", id);
        List<Long> queued = jdbc.queryForList(
                "SELECT COALESCE(queued_fire_at, -1) FROM schedules WHERE schedule_id = :id", byId, Long.class);
        // a fire held back now: its record stays until it is released (and may be old)
        if (queued.isEmpty() || queued.get(0) != -1) return true;
        List<Long> newestFire = jdbc.queryForList(
                "SELECT sequenceNumber FROM DomainEventEntry WHERE aggregateIdentifier = :id AND payloadType = :fired"
                        + " ORDER BY sequenceNumber DESC LIMIT 1",
                Map.of("id", id, "fired", ScheduleFired.class.getName()),
                Long.class);
        if (newestFire.isEmpty()) return true;
        long below = Math.min(snapshot, newestFire.get(0));
        long from = 0;
        while (budget.left > 0) {
            List<Map<String, Object>> events = jdbc.queryForList(
                    "SELECT sequenceNumber, timeStamp, payloadType FROM DomainEventEntry"
                            + " WHERE aggregateIdentifier = :id AND sequenceNumber >= :from AND sequenceNumber < :below"
                            + " ORDER BY sequenceNumber LIMIT :limit",
                    Map.of("id", id, "from", from, "below", below, "limit", STEP));
            List<Long> going = new ArrayList<>();
            boolean reachedRetention = false;
            for (Map<String, Object> event : events) {
                if (((String) event.get("timeStamp")).compareTo(cutoff) >= 0) {
                    reachedRetention = true;
                    break;
                }
                if (FIRE_RECORDS.contains((String) event.get("payloadType")))
                    going.add(((Number) event.get("sequenceNumber")).longValue());
            }
            if (going.size() > budget.left) {
                // the rest of this schedule at the next check
                delete(id, going.subList(0, budget.left), budget);
                return false;
            }
            delete(id, going, budget);
            if (reachedRetention || events.size() < STEP) return true;
            from = ((Number) events.get(events.size() - 1).get("sequenceNumber")).longValue() + 1;
        }
        return false;
    }

    private void delete(String id, List<Long> sequenceNumbers, Budget budget) {
        if (sequenceNumbers.isEmpty()) return;
        budget.deleted += jdbc.update(
                "DELETE FROM DomainEventEntry WHERE aggregateIdentifier = :id AND sequenceNumber IN (:seqs)",
                Map.of("id", id, "seqs", sequenceNumbers));
        budget.left -= sequenceNumbers.size();
    }
}
