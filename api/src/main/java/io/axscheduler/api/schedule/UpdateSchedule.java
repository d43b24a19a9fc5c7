package io.axscheduler.api.schedule;

import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Replaces the name, trigger, job template and policies; a new trigger's fire times start from {@code anchor}, an
 * unchanged one's stay as they were.
 */
public record UpdateSchedule(
        @TargetAggregateIdentifier String scheduleId,
        String name,
        Trigger trigger,
        JobTemplate job,
        MisfirePolicy misfirePolicy,
        OverlapPolicy overlapPolicy,
        Instant anchor) {}
