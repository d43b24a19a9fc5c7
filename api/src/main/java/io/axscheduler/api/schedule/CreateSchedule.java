package io.axscheduler.api.schedule;

import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Creates a schedule; its first fire time is computed from {@code anchor}, the moment of the request. */
public record CreateSchedule(
        @TargetAggregateIdentifier String scheduleId,
        String name,
        Trigger trigger,
        JobTemplate job,
        MisfirePolicy misfirePolicy,
        OverlapPolicy overlapPolicy,
        Instant anchor,
        String namespace) {
    public CreateSchedule {
        namespace = io.axscheduler.api.Namespaces.orDefault(namespace);
    }

    /** Without a namespace: the {@code default} one (events written before namespaces existed read so too). */
    public CreateSchedule(
            String scheduleId,
            String name,
            Trigger trigger,
            JobTemplate job,
            MisfirePolicy misfirePolicy,
            OverlapPolicy overlapPolicy,
            Instant anchor) {
        this(
                scheduleId,
                name,
                trigger,
                job,
                misfirePolicy,
                overlapPolicy,
                anchor,
                io.axscheduler.api.Namespaces.DEFAULT);
    }
}
