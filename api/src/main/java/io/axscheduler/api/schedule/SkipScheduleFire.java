package io.axscheduler.api.schedule;

import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Records a due fire time that makes no job (misfire or overlap policy), and the fire time after it. */
public record SkipScheduleFire(
        @TargetAggregateIdentifier String scheduleId, Instant fireTime, String reason, Instant nextFireTime) {}
