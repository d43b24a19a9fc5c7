package io.axscheduler.api.schedule;

public record SchedulePaused(String scheduleId) {}
