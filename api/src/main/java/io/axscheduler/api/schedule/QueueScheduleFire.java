package io.axscheduler.api.schedule;

import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Holds a due fire back until the schedule's running job ends (overlap policy QUEUE). */
public record QueueScheduleFire(
        @TargetAggregateIdentifier String scheduleId, Instant fireTime, String waitingForJobId, Instant nextFireTime) {}
