package io.axscheduler.api.schedule;

import java.time.Instant;

/** {@code namespace}: the schedule's (events written before it was carried read as {@code default}). */
public record ScheduleFireQueued(
        String scheduleId, Instant fireTime, String waitingForJobId, Instant nextFireTime, String namespace) {
    public ScheduleFireQueued {
        namespace = io.axscheduler.api.Namespaces.orDefault(namespace);
    }
}
