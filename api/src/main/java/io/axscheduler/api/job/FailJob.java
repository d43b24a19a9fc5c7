package io.axscheduler.api.job;

import io.axscheduler.api.TextLimit;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * The running attempt ended with an error. Only accepted for the attempt that is running. The error is cut to
 * {@link TextLimit#MAX_CHARS} here, whoever reports it: the event records what the read models show.
 */
public record FailJob(@TargetAggregateIdentifier String jobId, int attempt, String error, long durationMs)
        implements JobCommand {

    public FailJob {
        error = TextLimit.truncate(error);
    }
}
