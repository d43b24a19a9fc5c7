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
     * A {@code job_queue} row some node or worker could take: not bound to an app, or bound to one with a worker
     * registered in the job's namespace. A job of an app with none waits for one (explained {@code NO_LIVE_WORKER},
     * canceled after {@code no-worker-timeout}); it says nothing of how fast the type's other jobs are run.
     */
    public static final String TAKEN_BY_SOMEONE = "(executor_app IS NULL OR EXISTS (SELECT 1 FROM workers w"
            + " WHERE w.app = job_queue.executor_app AND w.namespace = job_queue.namespace))";

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
