package io.axscheduler.api.schedule;

import java.time.Instant;

public record ScheduleArmed(String scheduleId, String afterJobId, Instant endedAt, Instant nextFireTime) {}
