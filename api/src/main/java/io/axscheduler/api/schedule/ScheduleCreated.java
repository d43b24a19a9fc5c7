package io.axscheduler.api.schedule;

import java.time.Instant;

public record ScheduleCreated(
        String scheduleId,
        String name,
        Trigger trigger,
        JobTemplate job,
        MisfirePolicy misfirePolicy,
        OverlapPolicy overlapPolicy,
        Instant anchor,
        Instant nextFireTime,
        String namespace) {
    public ScheduleCreated {
        namespace = io.axscheduler.api.Namespaces.orDefault(namespace);
    }

    /** The schedule a create makes, first firing at {@code nextFireTime} (null: never). */
    public static ScheduleCreated of(CreateSchedule create, Instant nextFireTime) {
        return new ScheduleCreated(
                create.scheduleId(),
                create.name(),
                create.trigger(),
                create.job(),
                create.misfirePolicy(),
                create.overlapPolicy(),
                create.anchor(),
                nextFireTime,
                create.namespace());
    }

    /** Without a namespace: the {@code default} one (events written before namespaces existed read so too). */
    public ScheduleCreated(
            String scheduleId,
            String name,
            Trigger trigger,
            JobTemplate job,
            MisfirePolicy misfirePolicy,
            OverlapPolicy overlapPolicy,
            Instant anchor,
            Instant nextFireTime) {
        this(
                scheduleId,
                name,
                trigger,
                job,
                misfirePolicy,
                overlapPolicy,
                anchor,
                nextFireTime,
                io.axscheduler.api.Namespaces.DEFAULT);
    }
}
