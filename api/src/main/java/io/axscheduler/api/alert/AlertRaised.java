package io.axscheduler.api.alert;

import java.util.List;
import java.util.Map;

/** An alert went off; {@code channels} were told unless {@code notified} is false (rate-limited). */
public record AlertRaised(
        String alertId,
        String rule,
        AlertType type,
        String key,
        String message,
        Map<String, Object> details,
        List<String> channels,
        boolean notified) {}
