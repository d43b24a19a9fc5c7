package io.axscheduler.api.schedule;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Stops firing until resumed. */
public record PauseSchedule(@TargetAggregateIdentifier String scheduleId) {}
