package io.axscheduler.api.schedule;

/**
 * What a fire does while the schedule's previous job is still waiting or running: start another anyway; skip (the
 * skip is recorded in the schedule's history); or hold at most one fire back until the previous job ends.
 */
public enum OverlapPolicy {
    ALLOW,
    SKIP_IF_RUNNING,
    QUEUE;

    public static final OverlapPolicy DEFAULT = ALLOW;
}
