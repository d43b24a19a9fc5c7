package io.axscheduler.scheduler.remote.route;

import java.util.List;

/**
 * {@code SHARDING_BROADCAST}: every live worker runs the job, worker i as shard i of n, in registration order so
 * shard numbers are stable while the set of workers is. The dispatcher pushes to all of them, not only the first.
 */
public final class ShardingBroadcastRoute implements WorkerRoute {

    @Override
    public List<Candidate> order(List<Candidate> workers, RouteRequest request) {
        return List.copyOf(workers);
    }
}
