package io.axscheduler.api.job;

public record JobCanceled(String jobId, String reason, JobStatus previousStatus) {}
