package io.axscheduler.api.job;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** An operator re-runs a FAILED, TIMED_OUT or CANCELED job: a new attempt of the same job, due now. */
public record RetryJob(@TargetAggregateIdentifier String jobId) {}
