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

    /** The scanner may claim a job in this status once it is due. */
    public boolean isClaimable() {
        return this == WAITING || this == RETRY_WAITING;
    }
}
