package io.axscheduler.api.alert;

import java.util.List;

/** An alert's condition cleared; {@code channels} are told when they were told of the raise. */
public record AlertResolved(
        String alertId,
        String rule,
        AlertType type,
        String key,
        String message,
        List<String> channels,
        boolean notified) {}
