package io.axscheduler.api.job;

import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** A node takes a due job; if it has not started the job by {@code leaseUntil}, the job goes back to waiting. */
public record ClaimJob(@TargetAggregateIdentifier String jobId, String node, Instant leaseUntil)
        implements JobCommand {}
