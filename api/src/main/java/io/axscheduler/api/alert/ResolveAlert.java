package io.axscheduler.api.alert;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** The alert's condition cleared. */
public record ResolveAlert(@TargetAggregateIdentifier String alertId, String message) {}
