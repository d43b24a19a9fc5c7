package io.axscheduler.scheduler.execute;

/**
 * A job this node claimed and must now start: {@code attempt} is the number the run will have. {@code executorApp}
 * and {@code routeStrategy} (both may be null) send it to remote workers.
 */
public record ClaimedJob(String jobId, String jobType, int attempt, String jobKey, String paramsJson,
                         String executorApp, String routeStrategy, long timeoutMs) {

    public ClaimedJob(String jobId, String jobType, int attempt, String jobKey, String paramsJson) {
        this(jobId, jobType, attempt, jobKey, paramsJson, null, null, 30_000);
    }
}
