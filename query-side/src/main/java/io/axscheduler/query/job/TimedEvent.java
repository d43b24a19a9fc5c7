package io.axscheduler.query.job;

import java.time.Instant;

/** An event payload with the moment it was applied: all the fold needs of an Axon event message. */
public record TimedEvent(Object payload, Instant timestamp) {}
