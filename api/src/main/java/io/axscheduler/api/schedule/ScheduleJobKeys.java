package io.axscheduler.api.schedule;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

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

    /** What a fired job's key says: the schedule, the fire time, and whether it was a manual trigger. */
    public record Fire(String scheduleId, Instant fireTime, boolean manual) {}

    /** The fire a job key names, or empty for a key that is not a fired job's ({@link #of} is the inverse). */
    public static Optional<Fire> parse(String key) {
        if (key == null || !key.startsWith(PREFIX)) return Optional.empty();
        int at = key.lastIndexOf('@');
        int timeEnd = at + 1 + TIME_LENGTH;
        if (at <= PREFIX.length() || key.length() < timeEnd) return Optional.empty();
        String rest = key.substring(timeEnd);
        if (!rest.isEmpty() && !rest.startsWith(":manual:")) return Optional.empty();
        try {
            Instant fireTime = Instant.from(MILLIS.parse(key.substring(at + 1, timeEnd)));
            return Optional.of(new Fire(key.substring(PREFIX.length(), at), fireTime, !rest.isEmpty()));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static final int TIME_LENGTH = "2027-01-01T00:00:00.000Z".length();
}
