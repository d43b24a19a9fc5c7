package io.axscheduler.api.job;

/**
 * Phase CLAIM sends the job back to WAITING without using a retry; phase RUN ends the attempt as TIMED_OUT.
 * {@code reason} says why the attempt was given up when it was not its deadline (the worker running it left or went
 * silent); null for a lease or deadline that ran out, and in events stored before the field.
 */
public record JobTimedOut(String jobId, int attempt, TimeoutPhase phase, String reason) {

    public JobTimedOut(String jobId, int attempt, TimeoutPhase phase) {
        this(jobId, attempt, phase, null);
    }
}
