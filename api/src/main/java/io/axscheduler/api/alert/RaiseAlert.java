package io.axscheduler.api.alert;

import java.util.List;
import java.util.Map;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Records that a rule's condition holds for {@code key}. {@code notified}: whether the channels are told (false when
 * the rule's rate limit was reached: the alert is on record, no one is paged for it).
 */
public record RaiseAlert(
        @TargetAggregateIdentifier String alertId,
        String rule,
        AlertType type,
        String key,
        String message,
        Map<String, Object> details,
        List<String> channels,
        boolean notified) {}
