package io.axscheduler.api.job;

import io.axscheduler.api.TextLimit;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * The running attempt ended well. Only accepted for the attempt that is running. The result is cut to
 * {@link TextLimit#MAX_CHARS} here, whoever reports it: the event records what the read models show.
 */
public record SucceedJob(@TargetAggregateIdentifier String jobId, int attempt, String result, long durationMs)
        implements JobCommand {

    public SucceedJob {
        result = TextLimit.truncate(result);
    }
}
