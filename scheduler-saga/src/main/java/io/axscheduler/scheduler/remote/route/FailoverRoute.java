package io.axscheduler.scheduler.remote.route;

import java.util.Comparator;
import java.util.List;

/**
 * {@code FAILOVER}: the earliest-registered worker that has not been failing. Unlike {@code FIRST}, a worker with
 * recent push failures drops behind the healthy ones before it fails often enough to cool down.
 */
public final class FailoverRoute implements WorkerRoute {

    @Override
    public List<Candidate> order(List<Candidate> workers, RouteRequest request) {
        return workers.stream()
                .sorted(Comparator.comparingInt(Candidate::consecutiveFailures))
                .toList();
    }
}
