package io.axscheduler.api.schedule;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The idempotency key of a fired job: (schedule id, fire time). A fire time that two nodes both fire — or one node
 * twice after a rollback — names one job. A manual fire is not a fire time: each makes a job of its own, keyed by
 * that job's id too, so two triggers in one millisecond make two jobs and never collide with a scheduled fire.
 */
public final class ScheduleJobKeys {

    private static final DateTimeFormatter MILLIS =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    /** What every fired job's key begins with: no submit may name such a key, so none takes a fire time's job. */
    public static final String PREFIX = "schedule:";

    private ScheduleJobKeys() {}

    public static String of(String scheduleId, Instant fireTime, FireKind kind, String jobId) {
        String key = PREFIX + scheduleId + "@" + MILLIS.format(fireTime);
        return kind == FireKind.MANUAL ? key + ":manual:" + jobId : key;
    }
}
