package io.axscheduler.scheduler.alert;

import io.axscheduler.api.alert.AlertType;
import java.util.List;

/**
 * A rule: its condition ({@code type}, {@code filter}, {@code threshold}), how long the condition must hold before it
 * raises ({@code forMs}), the channels it tells, and how many raises it may notify per rate window
 * ({@code maxPerWindow}; null takes {@code ax.alerts.rate-limit.per-rule}). A null threshold takes the type's default.
 */
public record AlertRule(
        String name,
        AlertType type,
        Filter filter,
        Long threshold,
        Long forMs,
        List<String> channels,
        Integer maxPerWindow) {

    public AlertRule {
        filter = filter == null ? new Filter(null, null, null, null) : filter;
        // a channel named twice is told once (and notified once: its notification is keyed by alert and channel)
        channels = channels == null ? List.of() : List.copyOf(new java.util.LinkedHashSet<>(channels));
    }

    public long thresholdOrDefault() {
        return threshold == null ? type.defaultThreshold() : threshold;
    }

    public long forMsOrZero() {
        return forMs == null ? 0 : forMs;
    }

    /** Narrows a rule to a namespace, a job type, a schedule or a worker app; null matches any. */
    public record Filter(String namespace, String jobType, String scheduleId, String app) {}
}
