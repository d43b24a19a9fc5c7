package io.axscheduler.api.alert;

import java.util.List;
import java.util.Map;

/**
 * An alert went off. {@code channels}: the channels told, those of the rule within their rate limits;
 * {@code notified}: whether any was (false when the rate limits held them all back, and on alerts recorded before
 * channels were limited one by one, {@code channels} then names the rule's channels, none of them told).
 * {@code namespace}: the namespace the rule was narrowed to when it raised this alert, whose viewers may see it (null: a
 * rule of the whole cluster, an admin's to see, or an alert recorded before the namespace was).
 */
public record AlertRaised(
        String alertId,
        String rule,
        AlertType type,
        String key,
        String message,
        Map<String, Object> details,
        List<String> channels,
        boolean notified,
        String namespace) {}
