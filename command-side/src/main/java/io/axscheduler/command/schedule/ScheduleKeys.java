package io.axscheduler.command.schedule;

import java.util.List;
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

    /** Null when {@code key} is now {@code scheduleId}'s; else the schedule the key already names. */
    String claim(String key, String namespace, String scheduleId) {
        try {
            jdbc.update(
                    "INSERT INTO schedule_keys (schedule_key, namespace, schedule_id) VALUES (?, ?, ?)",
                    key,
                    namespace,
                    scheduleId);
            return null;
        } catch (DuplicateKeyException taken) {
            return scheduleOf(key, namespace);
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
