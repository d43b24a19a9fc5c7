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
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Deletes jobs that ended for good longer than {@code ax.scheduler.retention.finished-jobs} ago (by their job_queue
 * row's last change, on the database's clock): the job's events and snapshots, its job_queue row, its key and its
 * dispatches, all of one batch in one transaction. A purged job is an unknown job to every API, and its key may make
 * a new job.
 * <p>
 * What is kept past the retention: a job that may still move (waiting, running, or failed with a retry to come), a
 * job whose lifecycle saga has not seen it end yet, and a schedule's last job (which the overlap policies and
 * fixed-delay schedules read) and newest one. A schedule's own events (its fires among them) stay with the schedule.
 * <p>
 * The only command an ended job takes is an operator's re-run: it locks the job's job_queue row before it appends
 * (command-side's {@code KeptJobs}), and a batch here locks its rows before deleting anything, skipping locked ones.
 * So a re-run and a purge of one job never both land: the re-run runs first and the job is no longer ended, or the
 * purge does and the re-run finds no job (404). Every node checks; the row locks split the work between them.
 */
@Component
public class PurgeFinishedJobs implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(PurgeFinishedJobs.class);

    /** As Axon writes a saga's type into its association rows: the class's name (Axon's default serializer). */
    static final String LIFECYCLE_SAGA_TYPE = JobLifecycleSaga.class.getName();

    /**
     * A step of the walk over job_queue by creation (the index on {@code created_at}, which no update touches), from a
     * cursor, with whether each row may go: ended for good and unchanged since {@code :before}, not its schedule's
     * last job nor its newest, and not watched by a lifecycle saga. Kept rows are walked past, not read again by the
     * next step.
     */
    private static final String WALK = """
            SELECT j.job_id, j.created_at,
                   CASE WHEN j.updated_at < :before AND %s
                         AND (j.schedule_id IS NULL OR (
                              NOT EXISTS (SELECT 1 FROM schedules s
                                   WHERE s.schedule_id = j.schedule_id AND s.last_job_id = j.job_id)
                              AND EXISTS (SELECT 1 FROM job_queue n
                                   WHERE n.schedule_id = j.schedule_id AND n.created_at > j.created_at)))
                         AND NOT EXISTS (SELECT 1 FROM AssociationValueEntry a WHERE a.sagaType = :sagaType
                                   AND a.associationKey = 'jobId' AND a.associationValue = j.job_id)
                   THEN 1 ELSE 0 END AS goes
            FROM job_queue j FORCE INDEX (idx_job_queue_created)
            WHERE j.created_at >= :fromAt AND (j.created_at > :fromAt OR j.job_id > :fromId) AND j.created_at < :before
            ORDER BY j.created_at, j.job_id LIMIT :limit""".formatted(LastJob.ENDED_SQL);

    /**
     * How often the walk starts again from the oldest job: rows it passed may have become deletable since (a job made
     * long before it ended, a schedule's newest job once the schedule fired again).
     */
    static final Duration REWALK = Duration.ofHours(1);

    private final NamedParameterJdbcTemplate jdbc;
    private final TransactionTemplate transaction;
    private final DatabaseTime databaseTime;
    private final SchedulerProperties.Retention settings;
    private final Counter purged;
    /** Where the walk goes on from: the last row it passed, by creation and id. */
    private long fromAt = Long.MIN_VALUE;

    private String fromId = "";
    /** When the walk last started from the oldest job (database time). */
    private long walkStartedAt = Long.MIN_VALUE / 2;

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

    @Override
    public void configureTasks(ScheduledTaskRegistrar tasks) {
        if (settings.finishedJobs().isZero()) return;
        Duration every = Duration.ofMillis(settings.checkMs());
        tasks.addFixedDelayTask(new FixedDelayTask(this::check, every, every));
    }

    void check() {
        try {
            int n = purgeOnce();
            if (n > 0) log.info("deleted {} jobs that ended more than {} ago", n, settings.finishedJobs());
        } catch (RuntimeException e) {
            log.warn(
                    "deleting ended jobs past their retention failed; tried again at the next check: {}", e.toString());
        }
    }

    /**
     * One check: walks on from where the last stopped (from the oldest job again every {@link #REWALK}), deleting the
     * jobs past their retention, until it has deleted {@code max-per-check} or walked 20 times as many rows or reached
     * the jobs made within the retention; returns how many it deleted.
     */
    public synchronized int purgeOnce() {
        if (settings.finishedJobs().isZero()) return 0;
        long now = databaseTime.nowMs();
        long before = now - settings.finishedJobs().toMillis();
        if (now - walkStartedAt >= REWALK.toMillis()) {
            fromAt = Long.MIN_VALUE;
            fromId = "";
            walkStartedAt = now;
        }
        int deleted = 0;
        long walked = 0;
        // the first row this check meant to delete but found locked or changed; MAX_VALUE: none
        long revisitAt = Long.MAX_VALUE;
        while (deleted < settings.maxPerCheck() && walked < 20L * settings.maxPerCheck()) {
            int limit = settings.batchSize();
            List<Map<String, Object>> rows = jdbc.queryForList(
                    WALK,
                    Map.of(
                            "fromAt", fromAt,
                            "fromId", fromId,
                            "before", before,
                            "sagaType", LIFECYCLE_SAGA_TYPE,
                            "limit", limit));
            if (rows.isEmpty()) break;
            walked += rows.size();
            List<String> going = new ArrayList<>();
            for (Map<String, Object> row : rows)
                if (((Number) row.get("goes")).intValue() == 1) going.add((String) row.get("job_id"));
            if (!going.isEmpty()) {
                List<String> gone = transaction.execute(tx -> deleteBatch(going, before));
                deleted += gone.size();
                purged.increment(gone.size());
                // one locked by a re-run or another node: the next check walks from it again
                for (Map<String, Object> row : rows) {
                    Object id = row.get("job_id");
                    if (going.contains(id) && !gone.contains(id)) {
                        revisitAt = Math.min(revisitAt, ((Number) row.get("created_at")).longValue());
                        break;
                    }
                }
            }
            Map<String, Object> last = rows.get(rows.size() - 1);
            fromAt = ((Number) last.get("created_at")).longValue();
            fromId = (String) last.get("job_id");
            if (rows.size() < limit) break;
        }
        if (revisitAt != Long.MAX_VALUE) {
            // every row made at that millisecond again, the skipped one among them
            fromAt = revisitAt;
            fromId = "";
        }
        return deleted;
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
