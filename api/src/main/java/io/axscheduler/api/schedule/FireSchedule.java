package io.axscheduler.api.schedule;

import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Records a fire and the job it makes. A SCHEDULED fire must name the schedule's due fire time, a QUEUED one its held-back fire time: whoever fires second loses. */
public record FireSchedule(
        @TargetAggregateIdentifier String scheduleId,
        Instant fireTime,
        FireKind kind,
        String jobId,
        Instant nextFireTime) {}
