package io.axscheduler.api.job;

/** Where a job stands. The legal moves between these live in command-side's {@code JobTransitions}. */
public enum JobStatus {
    WAITING,
    CLAIMED,
    RUNNING,
    SUCCEEDED,
    FAILED,
    RETRY_WAITING,
    TIMED_OUT,
    CANCELED;

    /** No further move happens unless an operator re-runs the job (or the retry policy does, for FAILED and TIMED_OUT). */
    public boolean isTerminal() {
        return this == SUCCEEDED || this == FAILED || this == TIMED_OUT || this == CANCELED;
    }

    /**
     * The status a job has after {@code event}, or null for an object that is no job event. The one answer to "which
     * event means which status", for the aggregate, the job_queue projection and the as-of fold alike.
     */
    public static JobStatus after(Object event) {
        if (event instanceof JobCreated) return WAITING;
        if (event instanceof JobClaimed) return CLAIMED;
        if (event instanceof JobStarted) return RUNNING;
        if (event instanceof JobSucceeded) return SUCCEEDED;
        if (event instanceof JobFailed) return FAILED;
        if (event instanceof JobTimedOut e) return e.phase() == TimeoutPhase.CLAIM ? WAITING : TIMED_OUT;
        if (event instanceof JobHandedBack) return WAITING;
        if (event instanceof JobRetryScheduled) return RETRY_WAITING;
        if (event instanceof JobCanceled) return CANCELED;
        return null;
    }

    /** The scanner may claim a job in this status once it is due. */
    public boolean isClaimable() {
        return this == WAITING || this == RETRY_WAITING;
    }
}
