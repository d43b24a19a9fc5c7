package io.axscheduler.api.schedule;

import java.time.Instant;

public record ScheduleFireSkipped(String scheduleId, Instant fireTime, String reason, Instant nextFireTime) {}
