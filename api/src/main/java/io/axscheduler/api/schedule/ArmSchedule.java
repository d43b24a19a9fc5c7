package io.axscheduler.api.schedule;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

import java.time.Instant;

/** A fixed-delay schedule's run ended: its next fire is {@code delay} after {@code endedAt}. */
public record ArmSchedule(@TargetAggregateIdentifier String scheduleId, String afterJobId, Instant endedAt) {
}
