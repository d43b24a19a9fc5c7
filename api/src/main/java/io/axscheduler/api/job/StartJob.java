package io.axscheduler.api.job;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** The claimed attempt begins to run on {@code node}, in-process or on the remote {@code worker}. */
public record StartJob(@TargetAggregateIdentifier String jobId, int attempt, String node, String worker)
        implements JobCommand {}
