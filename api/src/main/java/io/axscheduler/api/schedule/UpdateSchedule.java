package io.axscheduler.api.schedule;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

import java.time.Instant;

/** Replaces the name, trigger, job template and policies; fire times restart from {@code anchor}. */
public record UpdateSchedule(@TargetAggregateIdentifier String scheduleId, String name, Trigger trigger, JobTemplate job, MisfirePolicy misfirePolicy, OverlapPolicy overlapPolicy, Instant anchor) {
}
