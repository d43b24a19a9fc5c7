package io.axscheduler.scheduler.execute;

/** A job this node claimed and must now start: {@code attempt} is the number the run will have. */
public record ClaimedJob(String jobId, String jobType, int attempt, String jobKey, String paramsJson) {
}
