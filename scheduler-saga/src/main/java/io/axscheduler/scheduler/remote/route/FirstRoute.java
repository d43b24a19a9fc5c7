package io.axscheduler.scheduler.remote.route;

import java.util.List;

/** {@code FIRST}: always the earliest-registered worker; the others only when a push to it fails. */
public final class FirstRoute implements WorkerRoute {

    @Override
    public List<Candidate> order(List<Candidate> workers, RouteRequest request) {
        return List.copyOf(workers);
    }
}
