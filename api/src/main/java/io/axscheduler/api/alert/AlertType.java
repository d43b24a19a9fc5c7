package io.axscheduler.api.alert;

/** What an alert rule watches. Each type's threshold and key are described in docs/operations.md. */
public enum AlertType {
    /** Jobs that failed for good (no retry left) within the event window; threshold: how many (default 1). */
    JOB_FAILED,
    /** Runs that timed out within the event window; threshold: how many (default 1). */
    JOB_TIMED_OUT,
    /** Active schedules whose next fire time is older than threshold ms (default 10000). */
    SCHEDULE_BEHIND,
    /**
     * A schedule whose misfire policy skipped fire times within the event window (nodes down, scanning paused, its
     * type held back, the schedule paused); threshold: how many skip records (default 1).
     */
    SCHEDULE_MISFIRED,
    /** A node whose scan did not complete for threshold ms (default 30000), or no node scanning at all. */
    SCANNER_STALLED,
    /** Due jobs waiting to be claimed, at least threshold of them (default 1000). */
    QUEUE_DEPTH,
    /** The longest-waiting due job has waited threshold ms (default 60000). */
    OLDEST_WAITING,
    /** A worker that missed its heartbeats. */
    WORKER_LOST,
    /**
     * An app with due jobs waiting and no live worker; or a job type of jobs bound to no app that no node and no live
     * worker runs.
     */
    NO_LIVE_WORKER,
    /**
     * A schedule created or changed within the event window whose trigger fires more than threshold times in the next
     * 24 hours (default 1440).
     */
    CRON_RUNAWAY;

    /** The filter fields ({@code namespace}, {@code jobType}, {@code scheduleId}, {@code app}) its condition reads. */
    public java.util.Set<String> filters() {
        return switch (this) {
            case SCANNER_STALLED -> java.util.Set.of();
            case WORKER_LOST -> java.util.Set.of("namespace", "app");
            case NO_LIVE_WORKER -> java.util.Set.of("namespace", "jobType", "scheduleId", "app");
            default -> java.util.Set.of("namespace", "jobType", "scheduleId");
        };
    }

    public long defaultThreshold() {
        return switch (this) {
            case JOB_FAILED, JOB_TIMED_OUT, SCHEDULE_MISFIRED -> 1;
            case SCHEDULE_BEHIND -> 10_000;
            case SCANNER_STALLED -> 30_000;
            case QUEUE_DEPTH -> 1_000;
            case OLDEST_WAITING -> 60_000;
            case WORKER_LOST, NO_LIVE_WORKER -> 0;
            case CRON_RUNAWAY -> 1_440;
        };
    }
}
