package io.axscheduler.api.schedule;

public record ScheduleDeleted(String scheduleId) {}
