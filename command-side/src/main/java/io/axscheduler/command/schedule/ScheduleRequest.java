package io.axscheduler.command.schedule;

import io.axscheduler.api.schedule.CreateSchedule;
import io.axscheduler.api.schedule.JobTemplate;
import io.axscheduler.api.schedule.MisfirePolicy;
import io.axscheduler.api.schedule.OverlapPolicy;
import io.axscheduler.api.schedule.Trigger;
import java.time.Instant;

/** A create or update body, validated. */
record ScheduleRequest(
        String name,
        Trigger trigger,
        JobTemplate job,
        MisfirePolicy misfirePolicy,
        OverlapPolicy overlapPolicy,
        String namespace,
        String scheduleKey) {

    /** The command that creates this schedule as {@code scheduleId}, its first fire time reckoned from {@code anchor}. */
    CreateSchedule create(String scheduleId, Instant anchor) {
        return new CreateSchedule(scheduleId, name, trigger, job, misfirePolicy, overlapPolicy, anchor, namespace);
    }
}
