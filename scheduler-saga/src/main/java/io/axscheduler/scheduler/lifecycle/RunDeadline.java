package io.axscheduler.scheduler.lifecycle;

/** The payload of a run deadline: which attempt it guards, so a late deadline cannot time out a newer attempt. */
public record RunDeadline(int attempt) {}
