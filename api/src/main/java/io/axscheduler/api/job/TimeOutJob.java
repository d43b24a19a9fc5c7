package io.axscheduler.api.job;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** A claim lease or a run deadline of {@code attempt} expired. Ignored (refused) when that attempt already moved on. */
public record TimeOutJob(@TargetAggregateIdentifier String jobId, int attempt, TimeoutPhase phase)
        implements JobCommand {}
