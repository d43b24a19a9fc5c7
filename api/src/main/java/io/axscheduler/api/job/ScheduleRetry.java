package io.axscheduler.api.job;

import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** The retry policy decided that the failed or timed-out {@code attempt} runs again at {@code runAt}. */
public record ScheduleRetry(@TargetAggregateIdentifier String jobId, int attempt, Instant runAt) {}
