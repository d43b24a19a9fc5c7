package io.axscheduler.api.schedule;

/** A paused or deleted schedule never fires; only an active one is scanned. */
public enum ScheduleState {
    ACTIVE,
    PAUSED,
    DELETED
}
