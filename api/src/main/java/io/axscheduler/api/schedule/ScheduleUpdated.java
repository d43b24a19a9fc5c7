package io.axscheduler.api.schedule;

import java.time.Instant;

public record ScheduleUpdated(
        String scheduleId,
        String name,
        Trigger trigger,
        JobTemplate job,
        MisfirePolicy misfirePolicy,
        OverlapPolicy overlapPolicy,
        Instant anchor,
        Instant nextFireTime) {}
