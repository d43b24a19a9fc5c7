package io.axscheduler.api.job;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** The running attempt ended with an error. Only accepted for the attempt that is running. */
public record FailJob(@TargetAggregateIdentifier String jobId, int attempt, String error, long durationMs) implements JobCommand {
}
