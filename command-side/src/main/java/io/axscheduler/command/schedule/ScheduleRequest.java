package io.axscheduler.command.schedule;

import io.axscheduler.api.schedule.JobTemplate;
import io.axscheduler.api.schedule.MisfirePolicy;
import io.axscheduler.api.schedule.OverlapPolicy;
import io.axscheduler.api.schedule.Trigger;

/** A create or update body, validated. */
record ScheduleRequest(
        String name,
        Trigger trigger,
        JobTemplate job,
        MisfirePolicy misfirePolicy,
        OverlapPolicy overlapPolicy,
        String namespace) {}
