package io.axscheduler.api.schedule;

import java.time.Instant;

public record ScheduleFireQueued(String scheduleId, Instant fireTime, String waitingForJobId, Instant nextFireTime) {}
