package io.axscheduler.query.job;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.TextLimit;
import io.axscheduler.api.job.JobCanceled;
import io.axscheduler.api.job.JobClaimed;
import io.axscheduler.api.job.JobCreated;
import io.axscheduler.api.job.JobFailed;
import io.axscheduler.api.job.JobRetryScheduled;
import io.axscheduler.api.job.JobStarted;
import io.axscheduler.api.job.JobSucceeded;
import io.axscheduler.api.job.JobTimedOut;
import io.axscheduler.api.job.TimeoutPhase;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.ResetHandler;
import org.axonframework.eventhandling.Timestamp;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.SqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;

import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The job_queue read model the scanner claims from. It runs in a subscribing processor, inside the transaction that
 * appends the event: an exception here must roll the append back, so nothing is caught, and an update that does not
 * hit exactly one row is a divergence that fails the command rather than one that is logged and forgotten.
 */
@Component
@ProcessingGroup(JobQueueProjection.PROCESSING_GROUP)
public class JobQueueProjection {

    public static final String PROCESSING_GROUP = "job-queue";

    private static final String PENDING = JobQueueProjection.class.getName() + ".pending";

    private final NamedParameterJdbcTemplate jdbc;
    private final ObjectMapper objectMapper;

    public JobQueueProjection(NamedParameterJdbcTemplate jdbc, ObjectMapper objectMapper) {
        this.jdbc = jdbc;
        this.objectMapper = objectMapper;
    }

    @EventHandler
    void on(JobCreated event, @Timestamp Instant at) {
        write("""
                INSERT INTO job_queue (job_id, job_key, job_type, status, claimable, priority, neg_priority, run_at,
                                       attempt, max_retries, timeout_ms, params, schedule_id, executor_app,
                                       route_strategy, created_at, updated_at)
                VALUES (:jobId, :jobKey, :jobType, 'WAITING', 1, :priority, :negPriority, :runAt,
                        0, :maxRetries, :timeoutMs, :params, :scheduleId, :executorApp,
                        :routeStrategy, :at, :at)""",
                new MapSqlParameterSource()
                        .addValue("jobId", event.jobId())
                        .addValue("jobKey", event.jobKey(), Types.VARCHAR)
                        .addValue("jobType", event.jobType())
                        .addValue("priority", event.priority())
                        .addValue("negPriority", -event.priority())
                        .addValue("runAt", event.runAt().toEpochMilli())
                        .addValue("maxRetries", event.retryPolicy().maxRetries())
                        .addValue("timeoutMs", event.timeoutMs())
                        .addValue("params", paramsJson(event.params()), Types.VARCHAR)
                        .addValue("scheduleId", event.scheduleId(), Types.VARCHAR)
                        .addValue("executorApp", event.executorApp(), Types.VARCHAR)
                        .addValue("routeStrategy", event.routeStrategy(), Types.VARCHAR)
                        .addValue("at", at.toEpochMilli()), event.jobId(), event);
    }

    @EventHandler
    void on(JobClaimed event, @Timestamp Instant at) {
        write("""
                UPDATE job_queue SET status = 'CLAIMED', claimable = 0, node = :node, lease_until = :leaseUntil,
                                     updated_at = :at
                WHERE job_id = :jobId""",
                new MapSqlParameterSource()
                        .addValue("jobId", event.jobId())
                        .addValue("node", event.node(), Types.VARCHAR)
                        .addValue("leaseUntil", epochMillis(event.leaseUntil()), Types.BIGINT)
                        .addValue("at", at.toEpochMilli()), event.jobId(), event);
    }

    /** Sets every column a claim sets: in a claim batch, where a job is claimed and started, it replaces the claim's write. */
    @EventHandler
    void on(JobStarted event, @Timestamp Instant at) {
        write(JobClaimed.class, """
                UPDATE job_queue SET status = 'RUNNING', claimable = 0, attempt = :attempt, node = :node,
                                     worker = :worker, lease_until = NULL, updated_at = :at
                WHERE job_id = :jobId""",
                new MapSqlParameterSource()
                        .addValue("jobId", event.jobId())
                        .addValue("attempt", event.attempt())
                        .addValue("node", event.node(), Types.VARCHAR)
                        .addValue("worker", event.worker(), Types.VARCHAR)
                        .addValue("at", at.toEpochMilli()), event.jobId(), event);
    }

    @EventHandler
    void on(JobSucceeded event, @Timestamp Instant at) {
        write("""
                UPDATE job_queue SET status = 'SUCCEEDED', claimable = 0, result = :result, updated_at = :at
                WHERE job_id = :jobId""",
                new MapSqlParameterSource()
                        .addValue("jobId", event.jobId())
                        .addValue("result", TextLimit.truncate(event.result()), Types.VARCHAR)
                        .addValue("at", at.toEpochMilli()), event.jobId(), event);
    }

    @EventHandler
    void on(JobFailed event, @Timestamp Instant at) {
        endWithError(event.jobId(), "FAILED", event.error(), at, event);
    }

    @EventHandler
    void on(JobTimedOut event, @Timestamp Instant at) {
        if (event.phase() == TimeoutPhase.RUN) {
            endWithError(event.jobId(), "TIMED_OUT", JobStateFold.runTimeoutError(event.attempt()), at, event);
            return;
        }
        // the claim lapsed before the run began: the job never ran, so it waits again as if never claimed
        write("""
                UPDATE job_queue SET status = 'WAITING', claimable = 1, lease_until = NULL, node = NULL,
                                     updated_at = :at
                WHERE job_id = :jobId""",
                new MapSqlParameterSource(Map.of("jobId", event.jobId(), "at", at.toEpochMilli())), event.jobId(), event);
    }

    @EventHandler
    void on(JobRetryScheduled event, @Timestamp Instant at) {
        write("""
                UPDATE job_queue SET status = 'RETRY_WAITING', claimable = 1, run_at = :runAt, updated_at = :at
                WHERE job_id = :jobId""",
                new MapSqlParameterSource(Map.of("jobId", event.jobId(), "runAt", event.runAt().toEpochMilli(), "at", at.toEpochMilli())), event.jobId(), event);
    }

    @EventHandler
    void on(JobCanceled event, @Timestamp Instant at) {
        write("""
                UPDATE job_queue SET status = 'CANCELED', claimable = 0, updated_at = :at
                WHERE job_id = :jobId""",
                new MapSqlParameterSource(Map.of("jobId", event.jobId(), "at", at.toEpochMilli())), event.jobId(), event);
    }

    @ResetHandler
    void deleteAllRows() {
        jdbc.update("DELETE FROM job_queue", Map.of());
    }

    private void endWithError(String jobId, String status, String error, Instant at, Object event) {
        write("""
                UPDATE job_queue SET status = :status, claimable = 0, last_error = :lastError, updated_at = :at
                WHERE job_id = :jobId""",
                new MapSqlParameterSource()
                        .addValue("jobId", jobId)
                        .addValue("status", status)
                        .addValue("lastError", TextLimit.truncate(error), Types.VARCHAR)
                        .addValue("at", at.toEpochMilli()), jobId, event);
    }

    private String paramsJson(Map<String, Object> params) {
        if (params == null || params.isEmpty()) {
            return null;
        }
        try {
            return objectMapper.writeValueAsString(params);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("params of job cannot be written as JSON", e);
        }
    }

    private static Long epochMillis(Instant instant) {
        return instant == null ? null : instant.toEpochMilli();
    }

    /**
     * Inside a unit of work (the live projection) the write joins the batch of that unit of work, flushed as JDBC
     * batches just before it commits — a claim batch of 200 jobs is then a few round trips, not 200. Outside one (the
     * rebuild replays through these handlers directly) it runs at once.
     */
    private void write(String sql, MapSqlParameterSource params, String jobId, Object event) {
        write(null, sql, params, jobId, event);
    }

    /** As {@link #write(String, MapSqlParameterSource, String, Object)}, replacing a pending write of the job made for {@code supersedes}. */
    private void write(Class<?> supersedes, String sql, MapSqlParameterSource params, String jobId, Object event) {
        if (!CurrentUnitOfWork.isStarted()) {
            requireOneRow(jdbc.update(sql, params), jobId, event);
            return;
        }
        UnitOfWork<?> unit = CurrentUnitOfWork.get();
        unit.getOrComputeResource(PENDING, key -> {
            PendingWrites pending = new PendingWrites();
            unit.onPrepareCommit(u -> pending.flush(jdbc));
            return pending;
        }).add(supersedes, new Write(sql, params, jobId, event));
    }

    /**
     * The writes of one unit of work. Each job's writes keep their event order; writes of different jobs touch
     * different rows and may go in any order. So the n-th write of every job forms layer n, and each layer goes as one
     * JDBC batch per statement: a claim batch (JobClaimed, JobStarted for each job) is one batch, not one per event.
     */
    private static final class PendingWrites {

        private final List<List<Write>> layers = new ArrayList<>();
        private final Map<String, Slot> lastWriteOfJob = new HashMap<>();

        /** Where a write waits: its layer, and its place in that layer. */
        private record Slot(int layer, int index) {
        }

        /** A write whose job's last pending write was made for an event of type {@code supersedes} takes its place. */
        void add(Class<?> supersedes, Write write) {
            Slot last = lastWriteOfJob.get(write.jobId());
            if (last != null && supersedes != null && supersedes.isInstance(at(last).event())) {
                layers.get(last.layer()).set(last.index(), write);
                return;
            }
            int layer = last == null ? 0 : last.layer() + 1;
            if (layer == layers.size()) layers.add(new ArrayList<>());
            layers.get(layer).add(write);
            lastWriteOfJob.put(write.jobId(), new Slot(layer, layers.get(layer).size() - 1));
        }

        private Write at(Slot slot) {
            return layers.get(slot.layer()).get(slot.index());
        }

        void flush(NamedParameterJdbcTemplate jdbc) {
            for (List<Write> layer : layers) {
                Map<String, List<Write>> bySql = new LinkedHashMap<>();
                for (Write write : layer) bySql.computeIfAbsent(write.sql(), k -> new ArrayList<>()).add(write);
                for (List<Write> run : bySql.values()) execute(jdbc, run);
            }
            layers.clear();
            lastWriteOfJob.clear();
        }

        private static void execute(NamedParameterJdbcTemplate jdbc, List<Write> run) {
            int[] rows = run.size() == 1
                    ? new int[] {jdbc.update(run.get(0).sql(), run.get(0).params())}
                    : jdbc.batchUpdate(run.get(0).sql(), run.stream().map(Write::params).toArray(SqlParameterSource[]::new));
            for (int i = 0; i < run.size(); i++) {
                requireOneRow(rows[i], run.get(i).jobId(), run.get(i).event());
            }
        }
    }

    private record Write(String sql, MapSqlParameterSource params, String jobId, Object event) {
    }

    // 0 rows: the row the event assumes is missing (JobCreated lost, or the table was cleared under a running
    // system); more than 1 cannot happen on a primary key, so it would be a schema bug. A driver that does not count
    // the rows of a batch (SUCCESS_NO_INFO) cannot be checked.
    private static void requireOneRow(int rows, String jobId, Object event) {
        if (rows != 1 && rows != Statement.SUCCESS_NO_INFO) {
            throw new IllegalStateException("job_queue: " + event.getClass().getSimpleName() + " of job " + jobId
                    + " changed " + rows + " rows, expected 1");
        }
    }
}
