package io.axscheduler.api.schedule;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Fires again; fire times missed while paused are handled by the misfire policy. */
public record ResumeSchedule(@TargetAggregateIdentifier String scheduleId) {}
