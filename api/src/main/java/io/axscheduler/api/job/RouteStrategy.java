package io.axscheduler.api.job;

/** How a job bound to remote workers picks the worker that runs it. */
public enum RouteStrategy {
    FIRST,
    ROUND_ROBIN,
    RANDOM,
    CONSISTENT_HASH,
    LEAST_RECENTLY_USED,
    LEAST_LOADED,
    FAILOVER,
    SHARDING_BROADCAST
}
