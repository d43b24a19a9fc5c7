package io.axscheduler.scheduler.fire;

import io.axscheduler.api.schedule.OverlapPolicy;
import java.time.Instant;

/** What a due fire does given the overlap policy, the schedule's last job and any fire already held back. */
enum OverlapDecision {
    FIRE,
    SKIP,
    QUEUE;

    static OverlapDecision decide(OverlapPolicy policy, LastJob lastJob, Instant queuedFireTime) {
        boolean running = lastJob != null && !lastJob.ended();
        if (!running || policy == OverlapPolicy.ALLOW) return FIRE;
        if (policy == OverlapPolicy.QUEUE && queuedFireTime == null) return QUEUE;
        return SKIP;
    }

    static String skipReason(OverlapPolicy policy, LastJob lastJob) {
        return policy == OverlapPolicy.QUEUE
                ? "a fire is already queued behind job " + lastJob.jobId() + " (" + lastJob.status()
                        + "); overlap policy QUEUE holds one"
                : "previous job " + lastJob.jobId() + " " + going(lastJob) + "; overlap policy SKIP_IF_RUNNING";
    }

    /** How the last job is still going: a FAILED or TIMED_OUT one only has a retry to come. */
    private static String going(LastJob lastJob) {
        return switch (lastJob.status()) {
            case FAILED, TIMED_OUT ->
                "has not ended: attempt " + lastJob.attempt() + " " + lastJob.status() + " and a retry is to come";
            default -> "is still " + lastJob.status();
        };
    }
}
