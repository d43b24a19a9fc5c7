package io.axscheduler.query.schedule;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.job.JobStatus;
import io.axscheduler.api.schedule.*;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

/** schedules rows, with the status of their last job from job_queue, as {@link ScheduleView}s. */
final class ScheduleRows {

    static final String SELECT = """
            SELECT s.schedule_id, s.name, s.state, s.trigger_json, s.timezone, s.job_json, s.misfire_policy,
                   s.overlap_policy, s.next_fire_at, s.queued_fire_at, s.last_fire_at, s.last_job_id, s.last_skip_reason,
                   s.fire_count, s.skip_count, s.created_at, s.updated_at, s.namespace, j.status AS last_job_status
            FROM schedules s LEFT JOIN job_queue j ON j.job_id = s.last_job_id""";

    private final ObjectMapper json;

    ScheduleRows(ObjectMapper json) {
        this.json = json;
    }

    ScheduleView toView(ResultSet rs, int rowNum) throws SQLException {
        Trigger trigger = read(rs.getString("trigger_json"), Trigger.class);
        ScheduleState state = ScheduleState.valueOf(rs.getString("state"));
        String jobStatus = rs.getString("last_job_status");
        // a once schedule past its time, or a cron one past its last (a year field that has run out)
        boolean completed = state == ScheduleState.ACTIVE
                && (trigger.type() == TriggerType.ONCE || trigger.type() == TriggerType.CRON)
                && rs.getObject("next_fire_at") == null
                && rs.getObject("queued_fire_at") == null
                && rs.getLong("fire_count") + rs.getLong("skip_count") > 0;
        return new ScheduleView(
                rs.getString("schedule_id"),
                rs.getString("name"),
                state,
                state == ScheduleState.PAUSED,
                completed,
                trigger,
                rs.getString("timezone"),
                FireTimes.describe(trigger),
                read(rs.getString("job_json"), JobTemplate.class),
                MisfirePolicy.valueOf(rs.getString("misfire_policy")),
                OverlapPolicy.valueOf(rs.getString("overlap_policy")),
                instant(rs, "next_fire_at"),
                instant(rs, "queued_fire_at"),
                instant(rs, "last_fire_at"),
                rs.getString("last_job_id"),
                jobStatus == null ? null : JobStatus.valueOf(jobStatus),
                rs.getString("last_skip_reason"),
                rs.getLong("fire_count"),
                rs.getLong("skip_count"),
                instant(rs, "created_at"),
                instant(rs, "updated_at"),
                rs.getString("namespace"));
    }

    private <T> T read(String text, Class<T> type) {
        try {
            return json.readValue(text, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("schedules row holds unreadable " + type.getSimpleName(), e);
        }
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        long value = rs.getLong(column);
        return rs.wasNull() ? null : Instant.ofEpochMilli(value);
    }
}
