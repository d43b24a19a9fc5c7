package io.axscheduler.api.schedule;

/**
 * When a job type's schedules are held back ({@code ax.scheduler.schedules.hold-back-after-ms}): the question the
 * schedule scan asks before firing and schedule explain asks to say why a fire is late. The scan then paces the type
 * until it catches up (its head then waits less than the bound); each node reports the types it paces in
 * {@code ax_nodes.held_back}, which explain reads too.
 */
public final class HoldBack {

    /** Jobs at the head of a type's queue (in due order, as the claims take them) that the question reads. */
    public static final int HEAD_OF_QUEUE = 20;

    /**
     * True when a head job of {@code :type} has waited to be claimed longer than {@code :after} ms, by database time:
     * from its due time, or from when it was made if later (a fire made late is not a slow queue).
     */
    public static final String HEAD_WAITED_TOO_LONG =
            "SELECT COALESCE(MAX(waited > :after), FALSE) FROM (SELECT ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000)"
                    + " - GREATEST(run_at, created_at) AS waited FROM job_queue FORCE INDEX (idx_job_queue_aging)"
                    + " WHERE claimable = 1 AND job_type = :type ORDER BY run_at LIMIT " + HEAD_OF_QUEUE + ") head";

    private HoldBack() {}
}
