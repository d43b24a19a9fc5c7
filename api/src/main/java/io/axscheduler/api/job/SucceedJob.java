package io.axscheduler.api.job;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** The running attempt ended well. Only accepted for the attempt that is running. */
public record SucceedJob(@TargetAggregateIdentifier String jobId, int attempt, String result, long durationMs) implements JobCommand {
}
