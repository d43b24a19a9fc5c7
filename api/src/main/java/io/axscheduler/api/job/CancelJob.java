package io.axscheduler.api.job;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** An operator stops a job that has not ended. */
public record CancelJob(@TargetAggregateIdentifier String jobId, String reason) {}
