package io.axscheduler.api.schedule;

import java.util.List;

/**
 * Many schedules created in one command: one dispatch and one unit of work for the lot, their events appended in one
 * batch. All are created or none.
 */
public record CreateSchedules(List<CreateSchedule> schedules) {

    public static final int MAX_SCHEDULES = 1000;

    public CreateSchedules {
        schedules = List.copyOf(schedules);
        if (schedules.size() > MAX_SCHEDULES) {
            throw new IllegalArgumentException(
                    "a batch holds at most " + MAX_SCHEDULES + " schedules, not " + schedules.size());
        }
    }
}
