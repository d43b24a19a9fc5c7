package io.axscheduler.scheduler.remote.route;

import java.util.Set;

/**
 * A live worker as routing sees it: a snapshot of its registry row. {@code registeredAt} and {@code workerId} give
 * the stable order FIRST and FAILOVER follow.
 */
public record Candidate(
        String workerId,
        String address,
        Set<String> jobTypes,
        int capacity,
        int inFlight,
        long lastUsedMs,
        int consecutiveFailures,
        long registeredAt) {

    public int freeSlots() {
        return Math.max(0, capacity - inFlight);
    }
}
