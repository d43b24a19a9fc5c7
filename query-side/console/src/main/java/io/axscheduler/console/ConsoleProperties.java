package io.axscheduler.console;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The console's settings, under {@code ax.console} (the stream's and the counts' are read by query-side).
 *
 * @param assets             where the pages load htmx, its SSE extension and ECharts from: the WebJars' paths, filled
 *                           in at build time ({@code console/assets.properties})
 * @param firesPerDayWarning the schedule form warns about a trigger firing more often than this a day
 * @param statsRetentionDays days of per-minute and per-hour statistics kept
 * @param nodeBeatMs         how often each node writes its row of the node list
 */
@ConfigurationProperties("ax.console")
record ConsoleProperties(
        Assets assets,
        @DefaultValue("48") long firesPerDayWarning,
        @DefaultValue("8") long statsRetentionDays,
        @DefaultValue("5000") long nodeBeatMs) {

    ConsoleProperties {
        if (assets == null || assets.htmx() == null || assets.sse() == null || assets.echarts() == null)
            throw new IllegalArgumentException("ax.console.assets.htmx, .sse and .echarts must be set");
        if (firesPerDayWarning < 1)
            throw new IllegalArgumentException("ax.console.fires-per-day-warning must be at least 1");
        if (statsRetentionDays < 1)
            throw new IllegalArgumentException("ax.console.stats-retention-days must be at least 1");
        if (nodeBeatMs < 100 || nodeBeatMs > 60_000)
            throw new IllegalArgumentException("ax.console.node-beat-ms must be 100..60000");
    }

    record Assets(String htmx, String sse, String echarts) {}
}
