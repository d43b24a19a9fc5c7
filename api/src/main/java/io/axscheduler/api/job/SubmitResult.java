package io.axscheduler.api.job;

/** What a submit made: a new job, or the one its job key already named. */
public record SubmitResult(String jobId, boolean created, JobStatus status) {}
