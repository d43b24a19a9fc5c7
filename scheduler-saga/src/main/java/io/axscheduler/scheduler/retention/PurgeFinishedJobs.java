package io.axscheduler.scheduler.retention;

import io.axscheduler.scheduler.DatabaseTime;
import io.axscheduler.scheduler.NodeMetrics;
import io.axscheduler.scheduler.SchedulerProperties;
import io.axscheduler.scheduler.fire.LastJob;
import io.axscheduler.scheduler.lifecycle.JobLifecycleSaga;
import io.micrometer.core.instrument.Counter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Deletes jobs that ended for good longer than {@code ax.scheduler.retention.finished-jobs} ago (by their job_queue
 * row's last change, on the database's clock): the job's events and snapshots, its job_queue row, its key and its
 * dispatches, all of one batch in one transaction. A purged job is an unknown job to every API, and its key may make
 * a new job.
 * <p>
 * What is kept past the retention: a job that may still move (waiting, running, or failed with a retry to come), a
 * job whose lifecycle saga has not seen it end yet, and the last job (which the overlap policies and fixed-delay
 * schedules read) and the newest one of a schedule that is not deleted. A schedule's records of its fires go at the
 * same age, behind its snapshot ({@link PruneScheduleFires}); {@link RetentionChecks} runs both.
 * <p>
 * The only command an ended job takes is an operator's re-run: it locks the job's job_queue row before it appends
 * (command-side's {@code KeptJobs}), and a batch here locks its rows before deleting anything, skipping locked ones.
 * So a re-run and a purge of one job never both land: the re-run runs first and the job is no longer ended, or the
 * purge does and the re-run finds no job (404). Every node checks; the row locks split the work between them.
 * <p>
 * Two walks find the jobs: one by {@code ended_at}, which goes on from where it stopped (a job ends after every job
 * already walked past, so it is found within a check of its retention), and one by creation over the jobs made before
 * the retention, from the oldest at the first check and once an hour, for what the first passed while it was kept or
 * never saw.
 */
@Component
public class PurgeFinishedJobs {

    private static final Logger log = LoggerFactory.getLogger(PurgeFinishedJobs.class);

    /** As Axon writes a saga's type into its association rows: the class's name (Axon's default serializer). */
    static final String LIFECYCLE_SAGA_TYPE = JobLifecycleSaga.class.getName();

    /**
     * A step of a walk over job_queue in the order of {@code %1$s} (through index {@code %2$s}), from a cursor, with
     * whether each row may go: ended for good and unchanged since {@code :before}, not the last job nor the newest of a
     * schedule that is not deleted, and not watched by a lifecycle saga. Kept rows are walked past, not read again by the next step.
     */
    private static final String STEP = """
            SELECT j.job_id, j.%1$s AS walked_at,
                   CASE WHEN j.updated_at < :before AND %3$s
                         AND (j.schedule_id IS NULL OR NOT EXISTS (SELECT 1 FROM schedules s
                              WHERE s.schedule_id = j.schedule_id AND s.state <> 'DELETED'
                                AND (s.last_job_id = j.job_id OR NOT EXISTS (SELECT 1 FROM job_queue n
                                     WHERE n.schedule_id = j.schedule_id AND n.created_at > j.created_at))))
                         AND NOT EXISTS (SELECT 1 FROM AssociationValueEntry a WHERE a.sagaType = :sagaType
                                   AND a.associationKey = 'jobId' AND a.associationValue = j.job_id)
                   THEN 1 ELSE 0 END AS goes
            FROM job_queue j FORCE INDEX (%2$s)
            WHERE j.%1$s >= :fromAt AND (j.%1$s > :fromAt OR j.job_id > :fromId) AND j.%1$s < :before
            ORDER BY j.%1$s, j.job_id LIMIT :limit""";

    /**
     * How often the walk by creation goes over every job made before the retention: it finds what the walk by end
     * passed or never saw (a schedule's last job once the schedule fired again, a job its saga still watched, jobs
     * that ended before {@code ended_at} was written).
     */
    static final Duration REWALK = Duration.ofHours(1);

    private final NamedParameterJdbcTemplate jdbc;
    private final TransactionTemplate transaction;
    private final DatabaseTime databaseTime;
    private final SchedulerProperties.Retention settings;
    private final Counter purged;
    /** Every job in the order it ended: goes on from where it stopped, for as long as the node runs. */
    private final Walk byEnd = new Walk("ended_at", "job_queue_ended");
    /** Every job made before the retention, in the order made: from the oldest at the first check, then hourly. */
    private final Walk byCreation = new Walk("created_at", "idx_job_queue_created");
    /** When the walk by creation starts again from the oldest job (database time). */
    private long rewalkAt = Long.MIN_VALUE;

    public PurgeFinishedJobs(
            NamedParameterJdbcTemplate jdbc,
            TransactionTemplate transaction,
            DatabaseTime databaseTime,
            SchedulerProperties properties,
            NodeMetrics metrics) {
        this.jdbc = jdbc;
        this.transaction = transaction;
        this.databaseTime = databaseTime;
        this.settings = properties.retention();
        this.purged = Counter.builder("ax.jobs.purged")
                .description("ended jobs this node deleted past ax.scheduler.retention.finished-jobs")
                .register(metrics.registry());
    }

    /** One check at the database's time: see {@link #purgeOnce(long)}. */
    public int purgeOnce() {
        return purgeOnce(databaseTime.nowMs());
    }

    /**
     * One check as if the database's clock read {@code nowMs}: the walk by end goes on from where it stopped, and
     * the walk by creation when it is under way or due ({@link #REWALK}), deleting the jobs past their retention,
     * until the check has deleted {@code max-per-check} or walked 20 times as many rows; returns how many it deleted.
     */
    public synchronized int purgeOnce(long nowMs) {
        if (settings.finishedJobs().isZero()) return 0;
        long before = nowMs - settings.finishedJobs().toMillis();
        CheckBudget budget = new CheckBudget(settings.maxPerCheck(), 20L * settings.maxPerCheck());
        walk(byEnd, before, budget);
        if (byCreation.done && nowMs >= rewalkAt) {
            byCreation.restart();
            rewalkAt = nowMs + REWALK.toMillis();
        }
        if (!byCreation.done) walk(byCreation, before, budget);
        return (int) budget.deleted;
    }

    /** A walk over job_queue by one column, and where it stands. */
    private static final class Walk {
        final String sql;
        long fromAt = Long.MIN_VALUE;
        String fromId = "";
        /** Reached the rows within the retention, or not started: it waits for its next turn. */
        boolean done = true;

        Walk(String column, String index) {
            this.sql = STEP.formatted(column, index, LastJob.ENDED_SQL);
        }

        void restart() {
            fromAt = Long.MIN_VALUE;
            fromId = "";
            done = false;
        }
    }

    private void walk(Walk walk, long before, CheckBudget budget) {
        // the first row this walk meant to delete but found locked or changed; MAX_VALUE: none
        long revisitAt = Long.MAX_VALUE;
        try {
            while (budget.left()) {
                int limit = settings.batchSize();
                List<Map<String, Object>> rows = jdbc.queryForList(
                        walk.sql,
                        Map.of(
                                "fromAt", walk.fromAt,
                                "fromId", walk.fromId,
                                "before", before,
                                "sagaType", LIFECYCLE_SAGA_TYPE,
                                "limit", limit));
                budget.reads -= rows.size();
                List<String> going = new ArrayList<>();
                for (Map<String, Object> row : rows)
                    if (((Number) row.get("goes")).intValue() == 1) going.add((String) row.get("job_id"));
                if (!going.isEmpty()) {
                    List<String> gone;
                    try {
                        gone = transaction.execute(tx -> deleteBatch(going, before));
                    } catch (PessimisticLockingFailureException lost) {
                        // a deadlock or lock wait with another node's purge or a claim: nothing of the batch was
                        // deleted
                        log.info("a batch of ended jobs met another transaction's lock; the next check takes it again");
                        revisitAt = Math.min(revisitAt, ((Number) rows.get(0).get("walked_at")).longValue());
                        break;
                    }
                    budget.deleted += gone.size();
                    budget.deletes -= gone.size();
                    purged.increment(gone.size());
                    // one locked by a re-run or another node: the next check walks from it again
                    for (Map<String, Object> row : rows) {
                        Object id = row.get("job_id");
                        if (going.contains(id) && !gone.contains(id)) {
                            revisitAt = Math.min(revisitAt, ((Number) row.get("walked_at")).longValue());
                            break;
                        }
                    }
                }
                if (!rows.isEmpty()) {
                    Map<String, Object> last = rows.get(rows.size() - 1);
                    walk.fromAt = ((Number) last.get("walked_at")).longValue();
                    walk.fromId = (String) last.get("job_id");
                }
                if (rows.size() < limit) {
                    walk.done = true;
                    break;
                }
            }
        } finally {
            if (revisitAt != Long.MAX_VALUE) {
                // every row of that millisecond again, the skipped one among them, whatever ended this walk
                walk.fromAt = revisitAt;
                walk.fromId = "";
                walk.done = false;
            }
        }
    }

    /**
     * Locks the candidates' rows (skipping those another transaction holds), keeps those still ended and past the
     * retention under the lock, and deletes all of each.
     */
    private List<String> deleteBatch(List<String> candidates, long before) {
        List<Map<String, Object>> locked = jdbc.queryForList(
                "SELECT job_id, job_key, namespace FROM job_queue j WHERE job_id IN (:ids) AND j.updated_at < :before"
                        + " AND " + LastJob.ENDED_SQL + " FOR UPDATE SKIP LOCKED",
                Map.of("ids", candidates, "before", before));
        List<String> ids = new ArrayList<>(locked.size());
        if (locked.isEmpty()) return ids;
        List<Map<String, Object>> keys = new ArrayList<>();
        for (Map<String, Object> row : locked) {
            String id = (String) row.get("job_id");
            ids.add(id);
            if (row.get("job_key") != null)
                keys.add(Map.of("key", row.get("job_key"), "namespace", row.get("namespace"), "id", id));
        }
        Map<String, Object> byIds = Map.of("ids", ids);
        jdbc.update("DELETE FROM DomainEventEntry WHERE aggregateIdentifier IN (:ids)", byIds);
        jdbc.update("DELETE FROM SnapshotEventEntry WHERE aggregateIdentifier IN (:ids)", byIds);
        jdbc.update("DELETE FROM worker_dispatches WHERE job_id IN (:ids)", byIds);
        if (!keys.isEmpty()) {
            @SuppressWarnings("unchecked")
            Map<String, Object>[] batch = keys.toArray(new Map[0]);
            jdbc.batchUpdate(
                    "DELETE FROM job_keys WHERE job_key = :key AND namespace = :namespace AND job_id = :id", batch);
        }
        jdbc.update("DELETE FROM job_queue WHERE job_id IN (:ids)", byIds);
        return ids;
    }
}
