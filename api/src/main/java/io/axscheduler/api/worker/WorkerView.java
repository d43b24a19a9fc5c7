package io.axscheduler.api.worker;

import java.time.Instant;
import java.util.List;

/** One registered worker as {@code GET /api/v1/workers} lists it. */
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
        String namespace) {}
