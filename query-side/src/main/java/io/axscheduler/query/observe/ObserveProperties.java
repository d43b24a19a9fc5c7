package io.axscheduler.query.observe;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code ax.observe.*} as the read side uses it.
 *
 * @param nodeReportMs how often each node writes its {@code ax_nodes} row (the scheduler side writes it); a node silent
 *     for three reports (at least 5 s) counts as gone
 * @param gaugeRefreshMs how often every node reads the cluster-wide gauges from the read models
 * @param scheduleBehindMs how far behind its next fire time an active schedule counts in {@code ax_schedules_behind}
 */
@ConfigurationProperties("ax.observe")
public record ObserveProperties(
        @DefaultValue("2000") long nodeReportMs,
        @DefaultValue("5000") long gaugeRefreshMs,
        @DefaultValue("10000") long scheduleBehindMs) {

    public ObserveProperties {
        if (nodeReportMs < 100 || nodeReportMs > 60_000)
            throw new IllegalArgumentException("ax.observe.node-report-ms must be 100..60000");
        if (gaugeRefreshMs < 100 || gaugeRefreshMs > 300_000)
            throw new IllegalArgumentException("ax.observe.gauge-refresh-ms must be 100..300000");
        if (scheduleBehindMs < 1000)
            throw new IllegalArgumentException("ax.observe.schedule-behind-ms must be >= 1000");
    }

    /** How long a node may stay silent before it counts as gone. */
    public long nodeSilentMs() {
        return Math.max(3 * nodeReportMs, 5_000);
    }
}
