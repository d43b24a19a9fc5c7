package io.axscheduler.scheduler.remote.route;

import java.util.List;

/**
 * A routing strategy: the live workers of a job's lane in the order to try them. The first gets the push; when a
 * push fails the next one takes over. {@code workers} come in registration order and are never empty.
 */
public interface WorkerRoute {

    List<Candidate> order(List<Candidate> workers, RouteRequest request);
}
