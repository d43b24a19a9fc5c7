package io.axscheduler.api.job;

/** Phase CLAIM sends the job back to WAITING without using a retry; phase RUN ends the attempt as TIMED_OUT. */
public record JobTimedOut(String jobId, int attempt, TimeoutPhase phase) {}
