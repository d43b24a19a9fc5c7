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
        String state) {}
