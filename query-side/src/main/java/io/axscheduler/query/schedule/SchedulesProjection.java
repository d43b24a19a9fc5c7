package io.axscheduler.query.schedule;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.TextLimit;
import io.axscheduler.api.schedule.*;
import io.axscheduler.query.BatchedRowWrites;
import java.sql.Types;
import java.time.Instant;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.ResetHandler;
import org.axonframework.eventhandling.Timestamp;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The schedules read model the fire scan claims from. A subscribing processor, in the transaction of the event
 * append: nothing is caught, and an update that misses its row fails the command instead of diverging. Writes go in
 * JDBC batches per unit of work ({@link BatchedRowWrites}): a batch request of 1,000 schedules is one insert batch.
 */
@Component
@ProcessingGroup(SchedulesProjection.PROCESSING_GROUP)
public class SchedulesProjection {

    public static final String PROCESSING_GROUP = "schedules";

    private final NamedParameterJdbcTemplate jdbc;
    private final ObjectMapper objectMapper;
    private final BatchedRowWrites writes;

    public SchedulesProjection(NamedParameterJdbcTemplate jdbc, ObjectMapper objectMapper) {
        this.jdbc = jdbc;
        this.objectMapper = objectMapper;
        this.writes = new BatchedRowWrites("schedules", "schedule_id", "schedule", jdbc);
    }

    @EventHandler
    void on(ScheduleCreated e, @Timestamp Instant at) {
        writes.write(
                """
                INSERT INTO schedules (schedule_id, name, state, trigger_type, trigger_json, timezone, job_type, job_json,
                                       misfire_policy, overlap_policy, anchor_at, next_fire_at, created_at, updated_at,
                                       defined_at, namespace)
                VALUES (:id, :name, 'ACTIVE', :triggerType, :triggerJson, :timezone, :jobType, :jobJson,
                        :misfire, :overlap, :anchor, :next, :at, :at, :at, :namespace)""",
                definition(
                                e.scheduleId(),
                                e.name(),
                                e.trigger(),
                                e.job(),
                                e.misfirePolicy(),
                                e.overlapPolicy(),
                                e.anchor(),
                                e.nextFireTime(),
                                at)
                        .addValue("namespace", e.namespace()),
                e.scheduleId(),
                e);
    }

    @EventHandler
    void on(ScheduleUpdated e, @Timestamp Instant at) {
        writes.write(
                """
                UPDATE schedules SET name = :name, trigger_type = :triggerType, trigger_json = :triggerJson,
                                     timezone = :timezone, job_type = :jobType, job_json = :jobJson,
                                     misfire_policy = :misfire, overlap_policy = :overlap, anchor_at = :anchor,
                                     next_fire_at = :next, updated_at = :at, defined_at = :at
                WHERE schedule_id = :id""",
                definition(
                        e.scheduleId(),
                        e.name(),
                        e.trigger(),
                        e.job(),
                        e.misfirePolicy(),
                        e.overlapPolicy(),
                        e.anchor(),
                        e.nextFireTime(),
                        at),
                e.scheduleId(),
                e);
    }

    @EventHandler
    void on(SchedulePaused e, @Timestamp Instant at) {
        update("state = 'PAUSED'", params(e.scheduleId(), at), e.scheduleId(), e);
    }

    @EventHandler
    void on(ScheduleResumed e, @Timestamp Instant at) {
        update("state = 'ACTIVE'", params(e.scheduleId(), at), e.scheduleId(), e);
    }

    @EventHandler
    void on(ScheduleDeleted e, @Timestamp Instant at) {
        update(
                "state = 'DELETED', next_fire_at = NULL, queued_fire_at = NULL",
                params(e.scheduleId(), at),
                e.scheduleId(),
                e);
    }

    @EventHandler
    void on(ScheduleFired e, @Timestamp Instant at) {
        String queued = e.kind() == FireKind.QUEUED ? ", queued_fire_at = NULL" : "";
        update(
                "next_fire_at = :next, last_fire_at = :fireTime, last_job_id = :jobId, fire_count = fire_count + 1"
                        + queued,
                params(e.scheduleId(), at)
                        .addValue("next", millis(e.nextFireTime()), Types.BIGINT)
                        .addValue("fireTime", e.fireTime().toEpochMilli())
                        .addValue("jobId", e.jobId()),
                e.scheduleId(),
                e);
    }

    @EventHandler
    void on(ScheduleFireSkipped e, @Timestamp Instant at) {
        update(
                "next_fire_at = :next, last_skip_reason = :reason, skip_count = skip_count + 1",
                params(e.scheduleId(), at)
                        .addValue("next", millis(e.nextFireTime()), Types.BIGINT)
                        .addValue("reason", TextLimit.truncate(e.fireTime() + ": " + e.reason()), Types.VARCHAR),
                e.scheduleId(),
                e);
    }

    @EventHandler
    void on(ScheduleFireQueued e, @Timestamp Instant at) {
        update(
                "next_fire_at = :next, queued_fire_at = :queued",
                params(e.scheduleId(), at)
                        .addValue("next", millis(e.nextFireTime()), Types.BIGINT)
                        .addValue("queued", e.fireTime().toEpochMilli()),
                e.scheduleId(),
                e);
    }

    @EventHandler
    void on(ScheduleArmed e, @Timestamp Instant at) {
        update(
                "next_fire_at = :next",
                params(e.scheduleId(), at).addValue("next", millis(e.nextFireTime()), Types.BIGINT),
                e.scheduleId(),
                e);
    }

    @ResetHandler
    void deleteAllRows() {
        jdbc.update("DELETE FROM schedules", new MapSqlParameterSource());
    }

    private void update(String set, MapSqlParameterSource params, String scheduleId, Object event) {
        writes.write(
                "UPDATE schedules SET " + set + ", updated_at = :at WHERE schedule_id = :id",
                params,
                scheduleId,
                event);
    }

    private MapSqlParameterSource definition(
            String id,
            String name,
            Trigger trigger,
            JobTemplate job,
            MisfirePolicy misfire,
            OverlapPolicy overlap,
            Instant anchor,
            Instant next,
            Instant at) {
        return params(id, at)
                .addValue("name", name, Types.VARCHAR)
                .addValue("triggerType", trigger.type().name())
                .addValue("triggerJson", json(trigger))
                .addValue("timezone", trigger.timezone())
                .addValue("jobType", job.jobType())
                .addValue("jobJson", json(job))
                .addValue("misfire", misfire.name())
                .addValue("overlap", overlap.name())
                .addValue("anchor", anchor.toEpochMilli())
                .addValue("next", millis(next), Types.BIGINT);
    }

    private static MapSqlParameterSource params(String id, Instant at) {
        return new MapSqlParameterSource().addValue("id", id).addValue("at", at.toEpochMilli());
    }

    private String json(Object value) {
        try {
            return objectMapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }

    private static Long millis(Instant instant) {
        return instant == null ? null : instant.toEpochMilli();
    }
}
