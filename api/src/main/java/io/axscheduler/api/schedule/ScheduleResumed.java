package io.axscheduler.api.schedule;

import java.time.Instant;

public record ScheduleResumed(String scheduleId, Instant nextFireTime) {}
