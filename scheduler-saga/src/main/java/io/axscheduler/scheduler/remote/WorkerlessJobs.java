package io.axscheduler.scheduler.remote;

import io.axscheduler.api.schedule.HoldBack;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * Where waiting jobs that may have no one to take them are, found without reading a backlog the nodes run: a job
 * bound to an app is an entry of the {@code waiting_app} index ({@link #BOUND}), and a job bound to none can only be
 * of a type no node runs in process ({@link #typesNoNodeRuns}). This narrows what a caller reads; each keeps its own
 * full check of who could take a job ({@link HoldBack#TAKEN_BY_SOMEONE}, or a live worker).
 */
public final class WorkerlessJobs {

    /** Job types {@link #typesNoNodeRuns} walks at most; past that it answers null. */
    public static final int MAX_TYPES_WALKED = 1000;

    /**
     * A waiting job bound to an executor app: {@code waiting_app} is its app while it is claimable and null
     * otherwise (the job_queue projection writes it with {@code claimable}), so this is one range of
     * {@code idx_job_queue_waiting_app (waiting_app, namespace, job_type, run_at)}, which answers the app, namespace,
     * type and due time without reading the row. While nodes of an older build still run, the jobs they write keep
     * the column as it was: a query that acts on a job checks {@code claimable} too.
     */
    public static final String BOUND = "waiting_app IS NOT NULL";

    private WorkerlessJobs() {}

    /**
     * The job types of claimable jobs that no node runs in process: found by walking the claim index's types, one
     * index dive a type, at most {@value #MAX_TYPES_WALKED} (null past that: the caller reads every waiting job),
     * less those in any node's pools ({@link HoldBack#runByANode}).
     */
    public static List<String> typesNoNodeRuns(NamedParameterJdbcTemplate jdbc) {
        List<String> claimable = new ArrayList<>();
        for (String type = jdbc.queryForObject(HoldBack.NEXT_CLAIMABLE_TYPE, Map.of("after", ""), String.class);
                type != null;
                type = jdbc.queryForObject(HoldBack.NEXT_CLAIMABLE_TYPE, Map.of("after", type), String.class)) {
            if (claimable.size() == MAX_TYPES_WALKED) return null;
            claimable.add(type);
        }
        if (claimable.isEmpty()) return List.of();
        List<String> pools = jdbc.queryForList("SELECT pools FROM ax_nodes", Map.of(), String.class);
        return claimable.stream()
                .filter(type -> !HoldBack.runByANode(type, pools))
                .toList();
    }
}
