package io.axscheduler.api.schedule;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The idempotency key of a fired job: (schedule id, fire time). A fire time that two nodes both fire — or one node
 * twice after a rollback — names one job; a manual fire has a key of its own so it never collides with a scheduled one.
 */
public final class ScheduleJobKeys {

    private static final DateTimeFormatter MILLIS =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private ScheduleJobKeys() {}

    public static String of(String scheduleId, Instant fireTime, FireKind kind) {
        String key = "schedule:" + scheduleId + "@" + MILLIS.format(fireTime);
        return kind == FireKind.MANUAL ? key + ":manual" : key;
    }
}
