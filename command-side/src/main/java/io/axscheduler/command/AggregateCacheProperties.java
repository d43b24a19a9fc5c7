package io.axscheduler.command;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The command side's aggregates in memory, under {@code ax.command} (snapshots have their own
 * {@link Snapshots.Settings}).
 *
 * @param jobCacheEntries      jobs kept in memory between their commands on this node (0: none)
 * @param jobCacheLifetimeMs   how long a job stays in memory after this node last wrote or read it from the store.
 *                             Another node may run and end a job this node holds as it made it, and the retention
 *                             may then delete the job's events (an hour after its end at the soonest): a command
 *                             decided here on the stale state would append where no unique key can refuse it any
 *                             more. The API looks a job up before it sends a command, so only a deletion between the
 *                             two could meet such an entry; an entry living less than the shortest retention is gone
 *                             before any can.
 * @param scheduleCacheEntries schedules kept likewise; one fired while out of the cache is read back from the event
 *                             store, so this should exceed the number of active schedules
 * @param aggregateLockWaitMs  how long a command waits for its aggregate's in-memory lock ({@link AggregateLocks})
 */
@ConfigurationProperties("ax.command")
public record AggregateCacheProperties(
        @DefaultValue("20000") int jobCacheEntries,
        @DefaultValue("600000") long jobCacheLifetimeMs,
        @DefaultValue("100000") int scheduleCacheEntries,
        @DefaultValue("10000") long aggregateLockWaitMs) {

    /** Half the shortest retention of finished jobs ({@code ax.scheduler.retention.finished-jobs}, 1h). */
    public static final long MAX_JOB_CACHE_LIFETIME_MS = 1_800_000;

    public AggregateCacheProperties {
        if (jobCacheEntries < 0)
            throw new IllegalArgumentException("ax.command.job-cache-entries must not be negative");
        if (jobCacheLifetimeMs < 1000 || jobCacheLifetimeMs > MAX_JOB_CACHE_LIFETIME_MS)
            throw new IllegalArgumentException("ax.command.job-cache-lifetime-ms must be 1000.."
                    + MAX_JOB_CACHE_LIFETIME_MS + " (shorter than the shortest retention of finished jobs, an hour)");
        if (scheduleCacheEntries < 0)
            throw new IllegalArgumentException("ax.command.schedule-cache-entries must not be negative");
        if (aggregateLockWaitMs < 1 || aggregateLockWaitMs > 60_000)
            throw new IllegalArgumentException("ax.command.aggregate-lock-wait-ms must be 1..60000");
    }
}
