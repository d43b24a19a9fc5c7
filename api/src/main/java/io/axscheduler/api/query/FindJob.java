package io.axscheduler.api.query;

/** Answered with an {@code Optional<JobView>} from the job_queue read model. */
public record FindJob(String jobId) {}
