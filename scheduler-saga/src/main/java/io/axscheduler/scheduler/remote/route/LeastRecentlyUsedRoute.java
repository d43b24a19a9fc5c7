package io.axscheduler.scheduler.remote.route;

import java.util.Comparator;
import java.util.List;

/** {@code LEAST_RECENTLY_USED}: the worker whose last push lies furthest back (never used counts as oldest). */
public final class LeastRecentlyUsedRoute implements WorkerRoute {

    @Override
    public List<Candidate> order(List<Candidate> workers, RouteRequest request) {
        return workers.stream()
                .sorted(Comparator.comparingLong(Candidate::lastUsedMs))
                .toList();
    }
}
