package io.axscheduler.scheduler.observe;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code ax.observe.*} as the scheduler side reads it.
 *
 * @param nodeReportMs how often each node writes its {@code ax_nodes} row; a node silent for three reports (at least
 *     5 s) counts as gone
 */
@ConfigurationProperties("ax.observe")
public record ObserveProperties(@DefaultValue("2000") long nodeReportMs) {

    public ObserveProperties {
        if (nodeReportMs < 100 || nodeReportMs > 60_000)
            throw new IllegalArgumentException("ax.observe.node-report-ms must be 100..60000");
    }

    /** How long a node may stay silent before it counts as gone. */
    public long nodeSilentMs() {
        return Math.max(3 * nodeReportMs, 5_000);
    }
}
