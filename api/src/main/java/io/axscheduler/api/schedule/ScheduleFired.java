package io.axscheduler.api.schedule;

import java.time.Instant;

/** {@code namespace}: the schedule's (events written before it was carried read as {@code default}). */
public record ScheduleFired(
        String scheduleId, Instant fireTime, FireKind kind, String jobId, Instant nextFireTime, String namespace) {
    public ScheduleFired {
        namespace = io.axscheduler.api.Namespaces.orDefault(namespace);
    }
}
