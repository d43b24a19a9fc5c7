package io.axscheduler.query.stats;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the overview counts jobs by status ({@link StatusCounts}), under {@code ax.console.counts}.
 *
 * @param exactUpTo   each status is counted exactly up to this many jobs; above it the figure is a full count taken
 *                    in the background
 * @param fullCountMs how often, at most, that full count runs
 */
@ConfigurationProperties("ax.console.counts")
public record StatusCountProperties(
        @DefaultValue("10000") long exactUpTo,
        @DefaultValue("30000") long fullCountMs) {

    public StatusCountProperties {
        if (exactUpTo < 1) throw new IllegalArgumentException("ax.console.counts.exact-up-to must be at least 1");
        if (fullCountMs < 0) throw new IllegalArgumentException("ax.console.counts.full-count-ms must be 0 or more");
    }
}
