package io.axscheduler.query.job;

import java.time.Instant;

/**
 * An event payload with the moment it was applied and who caused it (the {@code actor} metadata): all the fold needs
 * of an Axon event message.
 */
public record TimedEvent(Object payload, Instant timestamp, String actor) {

    public TimedEvent(Object payload, Instant timestamp) {
        this(payload, timestamp, null);
    }
}
