package io.axscheduler.api.job;

import java.time.Instant;

/** The job waits for another run at {@code runAt}; {@code manual} when an operator asked for it. */
public record JobRetryScheduled(String jobId, int afterAttempt, Instant runAt, boolean manual) {}
