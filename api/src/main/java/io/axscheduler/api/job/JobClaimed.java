package io.axscheduler.api.job;

import java.time.Instant;

/** {@code attempt} is the number the run will have once it starts. */
public record JobClaimed(String jobId, int attempt, String node, Instant leaseUntil) {}
