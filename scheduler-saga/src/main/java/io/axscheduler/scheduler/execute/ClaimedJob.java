package io.axscheduler.scheduler.execute;

/**
 * A job this node claimed: {@code attempt} is the number the run has. {@code executorApp} and {@code routeStrategy}
 * (both may be null) send it to remote workers. {@code started}: the claim batch also started it here, in-process
 * (JobStarted is already written); a job for remote workers is started when a worker takes it.
 */
public record ClaimedJob(String jobId, String jobType, int attempt, String jobKey, String paramsJson,
                         String executorApp, String routeStrategy, long timeoutMs, boolean started) {

    public ClaimedJob(String jobId, String jobType, int attempt, String jobKey, String paramsJson) {
        this(jobId, jobType, attempt, jobKey, paramsJson, null, null, 30_000, false);
    }

    public ClaimedJob startedHere() {
        return new ClaimedJob(jobId, jobType, attempt, jobKey, paramsJson, executorApp, routeStrategy, timeoutMs, true);
    }
}
