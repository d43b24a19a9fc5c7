package io.axscheduler.api.job;

/** Which lease ran out: a claim that never started (the job never ran, no retry is used) or a run. */
public enum TimeoutPhase {
    CLAIM,
    RUN
}
