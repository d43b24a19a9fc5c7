package io.axscheduler.scheduler.remote.route;

import java.util.Comparator;
import java.util.List;

/**
 * {@code LEAST_LOADED}: the worker with the smallest share of its capacity in use, so a worker twice the size takes
 * twice the work; ties go to the one with more free slots.
 */
public final class LeastLoadedRoute implements WorkerRoute {

    @Override
    public List<Candidate> order(List<Candidate> workers, RouteRequest request) {
        return workers.stream()
                .sorted(Comparator.comparingDouble(LeastLoadedRoute::load)
                        .thenComparing(
                                Comparator.comparingInt(Candidate::freeSlots).reversed()))
                .toList();
    }

    private static double load(Candidate worker) {
        return worker.capacity() <= 0 ? Double.MAX_VALUE : (double) worker.inFlight() / worker.capacity();
    }
}
