package io.axscheduler.api.schedule;

import java.time.Instant;

/** {@code namespace}: the schedule's (events written before it was carried read as {@code default}). */
public record ScheduleFireSkipped(
        String scheduleId, Instant fireTime, String reason, Instant nextFireTime, String namespace) {
    public ScheduleFireSkipped {
        namespace = io.axscheduler.api.Namespaces.orDefault(namespace);
    }
}
