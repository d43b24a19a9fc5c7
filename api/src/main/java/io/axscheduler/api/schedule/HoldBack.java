package io.axscheduler.api.schedule;

import java.util.List;
import java.util.Locale;

/**
 * When a job type's schedules in a namespace are held back ({@code ax.scheduler.schedules.hold-back-after-ms}): the
 * question the schedule scan asks before firing and schedule explain asks to say why a fire is late. The scan then
 * paces the type in that namespace until it catches up (its head there then waits less than the bound); each node
 * reports what it paces in {@code ax_nodes.held_back}, which explain reads too. What is held is a job type in one
 * namespace, named by {@link #key}: one team's backlog of a type holds back no other team's schedules of it.
 */
public final class HoldBack {

    /** Between a namespace and a job type in a {@link #key}: neither a namespace nor a job type's name has one. */
    private static final char SEPARATOR = '/';

    /** What is held back: the job type {@code jobType} in {@code namespace}, written {@code namespace/jobType}. */
    public static String key(String namespace, String jobType) {
        return namespace + SEPARATOR + jobType;
    }

    public static String namespaceOf(String key) {
        return key.substring(0, key.indexOf(SEPARATOR));
    }

    public static String jobTypeOf(String key) {
        return key.substring(key.indexOf(SEPARATOR) + 1);
    }

    /** A {@link #key} as a person reads it: {@code job type sync in namespace billing}. */
    public static String describe(String key) {
        return "job type " + jobTypeOf(key) + " in namespace " + namespaceOf(key);
    }

    /** A {@code schedules} row's {@link #key} in SQL, for a filter on held ones. */
    public static final String SCHEDULE_KEY = "CONCAT(namespace, '" + SEPARATOR + "', job_type)";

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
     * {@link #RUN_BY_A_NODE} asked in Java of a type and the nodes' {@code pools} column as read: the same entry looked
     * for, ignoring case as the column's collation does.
     */
    public static boolean runByANode(String jobType, List<String> pools) {
        String entry = "\"" + jobType.toLowerCase(Locale.ROOT) + "\":[";
        return pools.stream().anyMatch(pool -> pool.toLowerCase(Locale.ROOT).contains(entry));
    }

    /**
     * The first job type after {@code :after} (the empty string for the first) that has a claimable job, or null: one
     * read of the claim index, so that walking the types waiting costs a read a type, not a read a job.
     */
    public static final String NEXT_CLAIMABLE_TYPE =
            "SELECT MIN(job_type) FROM job_queue WHERE claimable = 1 AND job_type > :after";

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
     * The head of {@code :type}'s queue that more {@code condition} narrows: its first {@value #HEAD_OF_QUEUE} jobs
     * {@link #TAKEN_BY_SOMEONE} in due order (one range of the aging index, as the claims take them), each with its
     * namespace and how long it has waited to be claimed, by database time: from its due time, or from when it was
     * made if later (a fire made late is not a slow queue). A job no one can take is left out: it held every schedule
     * of its type back.
     */
    private static String head(String condition) {
        return "(SELECT namespace, ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000) - GREATEST(run_at, created_at) AS waited"
                + " FROM job_queue FORCE INDEX (idx_job_queue_aging) WHERE claimable = 1 AND job_type = :type AND "
                + TAKEN_BY_SOMEONE + condition + " ORDER BY run_at LIMIT " + HEAD_OF_QUEUE + ") head";
    }

    /**
     * The namespaces in which a job of the {@link #head} has waited longer than {@code :after} ms; the head less the
     * namespaces {@code :found} already when {@code excludingFound}: asked again without those, a namespace whose jobs
     * wait behind another's stuck backlog of the type is found too.
     */
    public static String namespacesBehind(boolean excludingFound) {
        return "SELECT namespace FROM " + head(excludingFound ? " AND namespace NOT IN (:found)" : "")
                + " GROUP BY namespace HAVING MAX(waited > :after) = 1 ORDER BY namespace";
    }

    /** Whether a job of the {@link #head} of {@code :namespace}'s jobs has waited longer than {@code :after} ms. */
    public static final String NAMESPACE_BEHIND =
            "SELECT COALESCE(MAX(waited > :after), FALSE) FROM " + head(" AND namespace = :namespace");

    private HoldBack() {}
}
