package io.axscheduler.command.schedule;

import io.axscheduler.api.problem.KeyReusedException;
import io.axscheduler.command.RequestFingerprint;
import java.util.List;
import java.util.Map;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Schedule keys, unique within their namespace ({@code schedule_keys}). A key is claimed in the transaction that
 * creates its schedule: a second create of the same key waits on the first one's row lock, then finds it taken.
 */
@Component
class ScheduleKeys {

    private final JdbcTemplate jdbc;

    ScheduleKeys(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Null when {@code key} is now {@code scheduleId}'s, kept with {@code requestHash} (a {@link RequestFingerprint});
     * else the schedule the key already names. Refused when the key was first sent with another request.
     */
    String claim(String key, String namespace, String scheduleId, String requestHash) {
        try {
            jdbc.update(
                    "INSERT INTO schedule_keys (schedule_key, namespace, schedule_id, request_hash) VALUES (?, ?, ?, ?)",
                    key,
                    namespace,
                    scheduleId,
                    RequestFingerprint.bytes(requestHash));
            return null;
        } catch (DuplicateKeyException taken) {
            Map<String, Object> first = jdbc.queryForMap(
                    "SELECT schedule_id, request_hash FROM schedule_keys WHERE schedule_key = ? AND namespace = ?",
                    key,
                    namespace);
            String firstId = (String) first.get("schedule_id");
            if (RequestFingerprint.differs((byte[]) first.get("request_hash"), requestHash))
                throw new KeyReusedException("scheduleKey", "schedule", firstId);
            return firstId;
        }
    }

    /** The schedule {@code key} names in {@code namespace}, or null. */
    String scheduleOf(String key, String namespace) {
        List<String> ids = jdbc.queryForList(
                "SELECT schedule_id FROM schedule_keys WHERE schedule_key = ? AND namespace = ?",
                String.class,
                key,
                namespace);
        return ids.isEmpty() ? null : ids.get(0);
    }
}
