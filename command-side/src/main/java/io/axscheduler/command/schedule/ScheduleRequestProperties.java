package io.axscheduler.command.schedule;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * What a schedule request must respect, under {@code ax.scheduler.schedules} (the scheduler binds that prefix's fire
 * settings; a side does not import another side's records).
 *
 * @param minIntervalMs schedules that would fire more often than this are refused (400 naming the trigger's field)
 */
@ConfigurationProperties("ax.scheduler.schedules")
public record ScheduleRequestProperties(
        @DefaultValue("1000") long minIntervalMs) {

    public ScheduleRequestProperties {
        if (minIntervalMs < 0)
            throw new IllegalArgumentException("ax.scheduler.schedules.min-interval-ms must be 0 or more");
    }
}
