package io.axscheduler.query.job;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.Metadata;
import io.axscheduler.api.TextLimit;
import io.axscheduler.api.job.JobCanceled;
import io.axscheduler.api.job.JobClaimed;
import io.axscheduler.api.job.JobCreated;
import io.axscheduler.api.job.JobFailed;
import io.axscheduler.api.job.JobHandedBack;
import io.axscheduler.api.job.JobRetryScheduled;
import io.axscheduler.api.job.JobStarted;
import io.axscheduler.api.job.JobStatus;
import io.axscheduler.api.job.JobSucceeded;
import io.axscheduler.api.job.JobTimedOut;
import io.axscheduler.api.job.TimeoutPhase;
import io.axscheduler.query.BatchedRowWrites;
import java.sql.Types;
import java.time.Instant;
import java.util.Map;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.ResetHandler;
import org.axonframework.eventhandling.Timestamp;
import org.axonframework.messaging.annotation.MetaDataValue;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The job_queue read model the scanner claims from. It runs in a subscribing processor, inside the transaction that
 * appends the event: an exception here must roll the append back, so nothing is caught, and an update that does not
 * hit exactly one row is a divergence that fails the command rather than one that is logged and forgotten. Writes
 * go in JDBC batches per unit of work ({@link BatchedRowWrites}).
 */
@Component
@ProcessingGroup(JobQueueProjection.PROCESSING_GROUP)
public class JobQueueProjection {

    public static final String PROCESSING_GROUP = "job-queue";

    private final NamedParameterJdbcTemplate jdbc;
    private final ObjectMapper objectMapper;
    private final BatchedRowWrites writes;

    public JobQueueProjection(NamedParameterJdbcTemplate jdbc, ObjectMapper objectMapper) {
        this.jdbc = jdbc;
        this.objectMapper = objectMapper;
        this.writes = new BatchedRowWrites("job_queue", "job_id", "job", jdbc);
    }

    /**
     * The insert of a job claimed, or claimed and started, in the unit of work that created it (a due schedule fire
     * this node runs): the claim's and the start's values go into the row as it is inserted, not in updates after it.
     */
    private static final String INSERT_MOVED_ON = """
            INSERT INTO job_queue (job_id, job_key, job_type, status, claimable, priority, neg_priority, run_at,
                                   attempt, max_retries, timeout_ms, params, schedule_id, executor_app,
                                   route_strategy, namespace, node, worker, lease_until, created_at, updated_at,
                                   waiting_app)
            VALUES (:jobId, :jobKey, :jobType, :status, :claimable, :priority, :negPriority, :runAt,
                    :attempt, :maxRetries, :timeoutMs, :params, :scheduleId, :executorApp,
                    :routeStrategy, :namespace, :node, :worker, :leaseUntil, :createdAt, :at,
                    CASE WHEN :claimable = 1 THEN :executorApp END)""";

    @EventHandler
    void on(JobCreated event, @Timestamp Instant at) {
        writes.write(
                """
                INSERT INTO job_queue (job_id, job_key, job_type, status, claimable, priority, neg_priority, run_at,
                                       attempt, max_retries, timeout_ms, params, schedule_id, executor_app,
                                       route_strategy, namespace, created_at, updated_at, waiting_app)
                VALUES (:jobId, :jobKey, :jobType, :status, :claimable, :priority, :negPriority, :runAt,
                        0, :maxRetries, :timeoutMs, :params, :scheduleId, :executorApp,
                        :routeStrategy, :namespace, :createdAt, :at, CASE WHEN :claimable = 1 THEN :executorApp END)""",
                withStatus(event)
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
                        .addValue("namespace", event.namespace())
                        .addValue("createdAt", at.toEpochMilli())
                        .addValue("at", at.toEpochMilli()),
                event.jobId(),
                event);
    }

    @EventHandler
    void on(JobClaimed event, @Timestamp Instant at) {
        MapSqlParameterSource claim = withStatus(event)
                .addValue("jobId", event.jobId())
                .addValue("attempt", event.attempt() - 1)
                .addValue("node", event.node(), Types.VARCHAR)
                .addValue("worker", null, Types.VARCHAR)
                .addValue("leaseUntil", epochMillis(event.leaseUntil()), Types.BIGINT)
                .addValue("at", at.toEpochMilli());
        writes.writeOrFold(JobCreated.class, INSERT_MOVED_ON, null, """
                UPDATE job_queue SET status = :status, claimable = :claimable, node = :node, lease_until = :leaseUntil,
                                     waiting_app = CASE WHEN :claimable = 1 THEN executor_app END,
                                     updated_at = :at
                WHERE job_id = :jobId""", claim, event.jobId(), event);
    }

    /**
     * Sets every column a claim sets: in a claim batch, where a job is claimed and started, it replaces the claim's
     * write; in the unit of work that created the job, it goes into the insert.
     */
    @EventHandler
    void on(JobStarted event, @Timestamp Instant at) {
        MapSqlParameterSource start = withStatus(event)
                .addValue("jobId", event.jobId())
                .addValue("attempt", event.attempt())
                .addValue("node", event.node(), Types.VARCHAR)
                .addValue("worker", event.worker(), Types.VARCHAR)
                .addValue("leaseUntil", null, Types.BIGINT)
                .addValue("at", at.toEpochMilli());
        writes.writeOrFold(JobCreated.class, INSERT_MOVED_ON, JobClaimed.class, """
                UPDATE job_queue SET status = :status, claimable = :claimable, attempt = :attempt, node = :node,
                                     waiting_app = CASE WHEN :claimable = 1 THEN executor_app END,
                                     worker = :worker, lease_until = NULL, updated_at = :at
                WHERE job_id = :jobId""", start, event.jobId(), event);
    }

    @EventHandler
    void on(JobSucceeded event, @Timestamp Instant at) {
        writes.write(
                """
                UPDATE job_queue SET status = :status, claimable = :claimable, result = :result, updated_at = :at,
                                     waiting_app = CASE WHEN :claimable = 1 THEN executor_app END,
                                     ended_at = :at
                WHERE job_id = :jobId""",
                withStatus(event)
                        .addValue("jobId", event.jobId())
                        .addValue("result", TextLimit.truncate(event.result()), Types.VARCHAR)
                        .addValue("at", at.toEpochMilli()),
                event.jobId(),
                event);
    }

    @EventHandler
    void on(JobFailed event, @Timestamp Instant at) {
        endWithError(event.jobId(), event.error(), at, event);
    }

    @EventHandler
    void on(JobTimedOut event, @Timestamp Instant at) {
        if (event.phase() == TimeoutPhase.RUN) {
            endWithError(event.jobId(), JobStateFold.runTimeoutError(event), at, event);
            return;
        }
        // the claim lapsed before the run began: the job never ran, so it waits again as if never claimed
        waitAgain(event.jobId(), at, event);
    }

    @EventHandler
    void on(JobHandedBack event, @Timestamp Instant at) {
        waitAgain(event.jobId(), at, event);
    }

    private void waitAgain(String jobId, Instant at, Object event) {
        writes.write("""
                UPDATE job_queue SET status = :status, claimable = :claimable, lease_until = NULL, node = NULL,
                                     waiting_app = CASE WHEN :claimable = 1 THEN executor_app END,
                                     updated_at = :at
                WHERE job_id = :jobId""", withStatus(event).addValues(Map.of("jobId", jobId, "at", at.toEpochMilli())), jobId, event);
    }

    @EventHandler
    void on(JobRetryScheduled event, @Timestamp Instant at) {
        writes.write(
                """
                UPDATE job_queue SET status = :status, claimable = :claimable, run_at = :runAt, updated_at = :at,
                                     waiting_app = CASE WHEN :claimable = 1 THEN executor_app END,
                                     ended_at = NULL
                WHERE job_id = :jobId""",
                withStatus(event)
                        .addValues(Map.of(
                                "jobId",
                                event.jobId(),
                                "runAt",
                                event.runAt().toEpochMilli(),
                                "at",
                                at.toEpochMilli())),
                event.jobId(),
                event);
    }

    @EventHandler
    void on(JobCanceled event, @MetaDataValue(Metadata.ACTOR) String actor, @Timestamp Instant at) {
        // given up by the scheduler: its reason is the job's error, as the fold says; an operator's cancel keeps it
        String givenUp = JobStateFold.givenUpError(event, actor);
        writes.write(
                """
                UPDATE job_queue SET status = :status, claimable = :claimable, updated_at = :at, ended_at = :at,
                                     waiting_app = CASE WHEN :claimable = 1 THEN executor_app END,
                                     last_error = COALESCE(:lastError, last_error)
                WHERE job_id = :jobId""",
                withStatus(event)
                        .addValues(Map.of("jobId", event.jobId(), "at", at.toEpochMilli()))
                        .addValue("lastError", givenUp == null ? null : TextLimit.truncate(givenUp), Types.VARCHAR),
                event.jobId(),
                event);
    }

    @ResetHandler
    void deleteAllRows() {
        jdbc.update("DELETE FROM job_queue", Map.of());
    }

    /**
     * The status and claimability the event leaves the job in, as {@link JobStatus#after} says. Every statement that
     * writes {@code claimable} writes {@code waiting_app} from it ({@code CASE WHEN :claimable = 1 THEN executor_app
     * END}): the worker checks find waiting app-bound jobs by that column's index alone.
     */
    private static MapSqlParameterSource withStatus(Object event) {
        JobStatus status = JobStatus.after(event);
        return new MapSqlParameterSource()
                .addValue("status", status.name())
                .addValue("claimable", status.isClaimable() ? 1 : 0);
    }

    private void endWithError(String jobId, String error, Instant at, Object event) {
        writes.write(
                """
                UPDATE job_queue SET status = :status, claimable = :claimable, last_error = :lastError, updated_at = :at,
                                     waiting_app = CASE WHEN :claimable = 1 THEN executor_app END,
                                     ended_at = :at
                WHERE job_id = :jobId""",
                withStatus(event)
                        .addValue("jobId", jobId)
                        .addValue("lastError", TextLimit.truncate(error), Types.VARCHAR)
                        .addValue("at", at.toEpochMilli()),
                jobId,
                event);
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
}
