package io.axscheduler.api.schedule;

import java.time.Instant;

public record ScheduleFired(String scheduleId, Instant fireTime, FireKind kind, String jobId, Instant nextFireTime) {}
