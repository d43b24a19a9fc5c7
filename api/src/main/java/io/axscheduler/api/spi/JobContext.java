package io.axscheduler.api.spi;

import io.axscheduler.api.schedule.ScheduleJobKeys;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/** What a handler knows of the attempt it runs. */
public interface JobContext {

    String jobId();

    String jobType();

    /** 1 for the first run, 2 for the first retry, … */
    int attempt();

    /** The job's {@code jobKey}, or its id when it has none: hand it to downstream systems to de-duplicate. */
    String idempotencyKey();

    Map<String, Object> params();

    /** The schedule that made this job; empty for a job submitted by itself. */
    default Optional<String> scheduleId() {
        return ScheduleJobKeys.parse(idempotencyKey()).map(ScheduleJobKeys.Fire::scheduleId);
    }

    /**
     * For a job a schedule made, the fire time it was made for (Quartz's scheduled fire time): the missed time for a
     * catch-up fire, each missed time for those of {@code FIRE_ALL}, the moment of the trigger for a manual one. So a
     * handler can tell which period it works on however late it runs. Empty for a job submitted by itself.
     */
    default Optional<Instant> scheduledFireTime() {
        return ScheduleJobKeys.parse(idempotencyKey()).map(ScheduleJobKeys.Fire::fireTime);
    }

    /** The whole-number parameter {@code name}, or {@code fallback} when absent; any other value is refused. */
    default long longParam(String name, long fallback) {
        Object value = params().get(name);
        if (value == null) return fallback;
        if (value instanceof Number n) return n.longValue();
        try {
            return Long.parseLong(value.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("params." + name + " must be a whole number, was '" + value + "'");
        }
    }

    /** The parameter {@code name} as text, or {@code fallback} when absent. */
    default String stringParam(String name, String fallback) {
        Object value = params().get(name);
        return value == null ? fallback : value.toString();
    }

    /** True once the job was canceled, timed out or the node is shutting down: stop as soon as is safe. */
    boolean isCancelled();

    /** Waits up to {@code millis}, returning early (true) when the attempt is cancelled. */
    boolean awaitCancellation(long millis) throws InterruptedException;
}
