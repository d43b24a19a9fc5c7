package io.axscheduler.command;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The command side's aggregates in memory, under {@code ax.command} (snapshots have their own
 * {@link Snapshots.Settings}).
 *
 * @param jobCacheEntries      jobs kept in memory between their commands on this node (0: none)
 * @param scheduleCacheEntries schedules kept likewise; one fired while out of the cache is read back from the event
 *                             store, so this should exceed the number of active schedules
 * @param aggregateLockWaitMs  how long a command waits for its aggregate's in-memory lock ({@link AggregateLocks})
 */
@ConfigurationProperties("ax.command")
public record AggregateCacheProperties(
        @DefaultValue("20000") int jobCacheEntries,
        @DefaultValue("100000") int scheduleCacheEntries,
        @DefaultValue("10000") long aggregateLockWaitMs) {

    public AggregateCacheProperties {
        if (jobCacheEntries < 0)
            throw new IllegalArgumentException("ax.command.job-cache-entries must not be negative");
        if (scheduleCacheEntries < 0)
            throw new IllegalArgumentException("ax.command.schedule-cache-entries must not be negative");
        if (aggregateLockWaitMs < 1 || aggregateLockWaitMs > 60_000)
            throw new IllegalArgumentException("ax.command.aggregate-lock-wait-ms must be 1..60000");
    }
}
