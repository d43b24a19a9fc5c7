package io.axscheduler.api.schedule;

/** Answered with an {@code Optional<ScheduleView>} from the schedules read model. */
public record FindSchedule(String scheduleId) {}
