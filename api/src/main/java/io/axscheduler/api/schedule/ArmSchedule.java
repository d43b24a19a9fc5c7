package io.axscheduler.api.schedule;

import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** A fixed-delay schedule's run ended: its next fire is {@code delay} after {@code endedAt}. */
public record ArmSchedule(@TargetAggregateIdentifier String scheduleId, String afterJobId, Instant endedAt) {}
