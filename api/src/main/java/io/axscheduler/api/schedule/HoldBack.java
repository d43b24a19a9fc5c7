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
     * What a skip's reason says when its fire times were missed because the schedule's job type was held back (no
     * node was down): the scanner writes it, explain reads it (and gives no downtime for such a skip).
     */
    public static final String SKIP_NOTE = "was held back";

    /** {@link #SKIP_NOTE} in a skip's reason: the type was held back when its first missed time came due. */
    public static boolean causedSkip(String reason) {
        return reason != null && reason.contains(SKIP_NOTE);
    }

    /**
     * Whether some node runs the type of the {@code job_queue} row in process: any node's reported pools
     * ({@code ax_nodes.pools}, JSON of type to pool).
     */
    public static final String RUN_BY_A_NODE = "EXISTS (SELECT 1 FROM ax_nodes n"
            + " WHERE LOCATE(CONCAT('\"', job_queue.job_type, '\":['), n.pools) > 0)";

    /**
     * A {@code job_queue} row some node or worker could take: a worker registered in the job's namespace runs its type
     * (a worker of the job's executor app, when it is bound to one), or, not bound to an app, a node runs its type in
     * process (any node's reported pools, {@code ax_nodes.pools}: JSON of type to pool). A job no one can take waits
     * for a worker (explained {@code NO_LIVE_WORKER} or {@code NO_HANDLER}, canceled after {@code no-worker-timeout});
     * it says nothing of how fast the type's other jobs are run, in its namespace or another.
     */
    public static final String TAKEN_BY_SOMEONE = "((job_queue.executor_app IS NULL AND " + RUN_BY_A_NODE + ")"
            + " OR EXISTS (SELECT 1 FROM workers w WHERE w.namespace = job_queue.namespace"
            + " AND (job_queue.executor_app IS NULL OR w.app = job_queue.executor_app)"
            + " AND FIND_IN_SET(job_queue.job_type, w.job_types) > 0))";

    /**
     * True when a head job of {@code :type} has waited to be claimed longer than {@code :after} ms, by database time:
     * from its due time, or from when it was made if later (a fire made late is not a slow queue). Only jobs
     * {@link #TAKEN_BY_SOMEONE}: a job no worker can take held every schedule of its type back.
     */
    public static final String HEAD_WAITED_TOO_LONG =
            "SELECT COALESCE(MAX(waited > :after), FALSE) FROM (SELECT ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000)"
                    + " - GREATEST(run_at, created_at) AS waited FROM job_queue FORCE INDEX (idx_job_queue_aging)"
                    + " WHERE claimable = 1 AND job_type = :type AND " + TAKEN_BY_SOMEONE + " ORDER BY run_at LIMIT "
                    + HEAD_OF_QUEUE + ") head";

    private HoldBack() {}
}
