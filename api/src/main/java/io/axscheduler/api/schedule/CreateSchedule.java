package io.axscheduler.api.schedule;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

import java.time.Instant;

/** Creates a schedule; its first fire time is computed from {@code anchor}, the moment of the request. */
public record CreateSchedule(@TargetAggregateIdentifier String scheduleId, String name, Trigger trigger, JobTemplate job, MisfirePolicy misfirePolicy, OverlapPolicy overlapPolicy, Instant anchor) {
}
