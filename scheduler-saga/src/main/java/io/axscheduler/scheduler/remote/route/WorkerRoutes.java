package io.axscheduler.scheduler.remote.route;

import io.axscheduler.api.job.RouteStrategy;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/** One instance of each strategy per node (round robin keeps its turns in it). */
public final class WorkerRoutes {

    private final Map<RouteStrategy, WorkerRoute> routes = new EnumMap<>(RouteStrategy.class);

    public WorkerRoutes() {
        routes.put(RouteStrategy.FIRST, new FirstRoute());
        routes.put(RouteStrategy.ROUND_ROBIN, new RoundRobinRoute());
        routes.put(RouteStrategy.RANDOM, new RandomRoute(ThreadLocalRandom::current));
        routes.put(RouteStrategy.CONSISTENT_HASH, new ConsistentHashRoute());
        routes.put(RouteStrategy.LEAST_RECENTLY_USED, new LeastRecentlyUsedRoute());
        routes.put(RouteStrategy.LEAST_LOADED, new LeastLoadedRoute());
        routes.put(RouteStrategy.FAILOVER, new FailoverRoute());
        routes.put(RouteStrategy.SHARDING_BROADCAST, new ShardingBroadcastRoute());
    }

    public WorkerRoute of(RouteStrategy strategy) {
        return routes.get(strategy);
    }
}
