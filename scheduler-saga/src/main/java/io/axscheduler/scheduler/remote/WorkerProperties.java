package io.axscheduler.scheduler.remote;

import io.axscheduler.api.worker.WorkerView;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Remote workers, under {@code ax.scheduler.workers}.
 *
 * @param heartbeatIntervalMs    how often workers are told to heartbeat
 * @param missedHeartbeats       a worker silent for this many intervals is removed, and its running attempts time out
 * @param expiryCheckMs          how often each node looks for silent workers
 * @param connectTimeoutMs       connect timeout of a push (a push never waits longer than half the job's timeout)
 * @param readTimeoutMs          response timeout of a push (idem)
 * @param failuresBeforeCoolDown consecutive failed pushes after which a worker gets no new work for a while
 * @param coolDownMs             how long that while is
 * @param callbackMaxAgeMs       a callback whose timestamp is further than this from the node's clock is stale (401);
 *                               also how long a signature is remembered to refuse its replay
 * @param pushThreads            threads pushing to workers on this node (a push is one bounded HTTP call)
 * @param maxCapacity            largest capacity a worker may register
 * @param typesKeptMs            how long a job type stays known to submits in a namespace after the last worker that
 *                               registered it there left: jobs of it are taken and wait for a worker meanwhile (a
 *                               rolling restart, a worker outage), rather than refused as an unknown type; 0 forgets
 *                               a type as its last worker leaves
 */
@ConfigurationProperties("ax.scheduler.workers")
public record WorkerProperties(
        @DefaultValue("10000") long heartbeatIntervalMs,
        @DefaultValue("3") int missedHeartbeats,
        @DefaultValue("2000") long expiryCheckMs,
        @DefaultValue("1000") long connectTimeoutMs,
        @DefaultValue("5000") long readTimeoutMs,
        @DefaultValue("5") int failuresBeforeCoolDown,
        @DefaultValue("30000") long coolDownMs,
        @DefaultValue("300000") long callbackMaxAgeMs,
        @DefaultValue("8") int pushThreads,
        @DefaultValue("256") int maxCapacity,
        @DefaultValue("86400000") long typesKeptMs) {

    static final long MAX_TYPES_KEPT_MS = 366L * 86_400_000;

    public WorkerProperties {
        if (heartbeatIntervalMs < 100)
            throw new IllegalArgumentException("ax.scheduler.workers.heartbeat-interval-ms must be at least 100");
        if (expiryCheckMs < 100 || expiryCheckMs > 600_000)
            throw new IllegalArgumentException("ax.scheduler.workers.expiry-check-ms must be 100..600000");
        if (missedHeartbeats < 1)
            throw new IllegalArgumentException("ax.scheduler.workers.missed-heartbeats must be at least 1");
        if (pushThreads < 1 || pushThreads > 200)
            throw new IllegalArgumentException("ax.scheduler.workers.push-threads must be 1..200");
        if (failuresBeforeCoolDown < 1)
            throw new IllegalArgumentException("ax.scheduler.workers.failures-before-cool-down must be at least 1");
        if (typesKeptMs < 0 || typesKeptMs > MAX_TYPES_KEPT_MS)
            throw new IllegalArgumentException(
                    "ax.scheduler.workers.types-kept-ms must be 0.." + MAX_TYPES_KEPT_MS + " (366 days)");
    }

    /** A worker heard from longer ago than this is missing its heartbeats (SILENT), before it is removed. */
    public long quietMs() {
        return WorkerView.QUIET_AFTER_HEARTBEATS * heartbeatIntervalMs;
    }

    /** A worker whose last heartbeat is older than this is gone. */
    public long silenceMs() {
        return heartbeatIntervalMs * missedHeartbeats;
    }

    /** Both push timeouts stay under the job's own timeout, so a hanging worker cannot outlast the attempt. */
    public long pushTimeoutMs(long jobTimeoutMs) {
        return Math.max(100, Math.min(connectTimeoutMs + readTimeoutMs, jobTimeoutMs / 2));
    }
}
