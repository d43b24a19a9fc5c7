package io.axscheduler.api.schedule;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Ends the schedule for good; its history stays. */
public record DeleteSchedule(@TargetAggregateIdentifier String scheduleId) {}
