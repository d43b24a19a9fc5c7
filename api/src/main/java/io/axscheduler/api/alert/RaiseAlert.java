package io.axscheduler.api.alert;

import java.util.List;
import java.util.Map;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Records that a rule's condition holds for {@code key}. {@code channels}: the channels told (the rule's channels
 * within their rate limits); {@code notified}: whether any is (false when the rate limits hold them all back: the alert
 * is on record, no one is paged for it). {@code namespace}: the rule's namespace filter as it raises (null: none).
 */
public record RaiseAlert(
        @TargetAggregateIdentifier String alertId,
        String rule,
        AlertType type,
        String key,
        String message,
        Map<String, Object> details,
        List<String> channels,
        boolean notified,
        String namespace) {}
