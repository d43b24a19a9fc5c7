package io.axscheduler.api.job;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * A claim lease or a run deadline of {@code attempt} expired, or the worker running it is gone ({@code reason} says
 * which, else null). Ignored (refused) when that attempt already moved on.
 */
public record TimeOutJob(@TargetAggregateIdentifier String jobId, int attempt, TimeoutPhase phase, String reason)
        implements JobCommand {

    public TimeOutJob(String jobId, int attempt, TimeoutPhase phase) {
        this(jobId, attempt, phase, null);
    }
}
