package io.axscheduler.scheduler.remote.route;

/**
 * What a strategy may route by: {@code lane} (job type and executor app, the unit round robin turns over) and
 * {@code jobKey} (the job's key, or its id when it has none, which consistent hashing maps to a worker).
 */
public record RouteRequest(String lane, String jobKey) {}
