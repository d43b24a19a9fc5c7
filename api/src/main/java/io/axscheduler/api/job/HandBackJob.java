package io.axscheduler.api.job;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * The node that claimed {@code attempt} gives the claim up before starting it: the job waits again without using a
 * retry. Refused when that attempt already moved on.
 */
public record HandBackJob(@TargetAggregateIdentifier String jobId, int attempt, HandBackReason reason)
        implements JobCommand {}
