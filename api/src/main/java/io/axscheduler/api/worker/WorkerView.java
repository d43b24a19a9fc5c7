package io.axscheduler.api.worker;

import java.time.Instant;
import java.util.List;

/**
 * One registered worker as {@code GET /api/v1/workers} lists it. {@code state}: {@code SILENT} when it has missed two
 * heartbeats (it is removed after {@code missed-heartbeats}), else {@code COOLING} while it cools down after failed
 * pushes, else {@code LIVE} — the states of the {@code ax_workers} gauge.
 */
public record WorkerView(
        String workerId,
        String app,
        String address,
        List<String> jobTypes,
        int capacity,
        Instant lastHeartbeat,
        int inFlight,
        int consecutiveFailures,
        boolean coolingDown,
        String namespace,
        String state) {

    /** Heard from longer ago than this many heartbeat intervals, a worker is missing them: SILENT. */
    public static final int QUIET_AFTER_HEARTBEATS = 2;

    /** A worker's state from its row's times (one clock: the database's), as the list and the gauge say it. */
    public static String state(long lastHeartbeatMs, long coolingUntilMs, long nowMs, long heartbeatIntervalMs) {
        if (lastHeartbeatMs < nowMs - QUIET_AFTER_HEARTBEATS * heartbeatIntervalMs) return "SILENT";
        return coolingUntilMs > nowMs ? "COOLING" : "LIVE";
    }
}
