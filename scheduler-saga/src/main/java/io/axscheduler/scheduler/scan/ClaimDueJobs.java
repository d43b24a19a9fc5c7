package io.axscheduler.scheduler.scan;

import io.axscheduler.api.job.ClaimJob;
import io.axscheduler.scheduler.DatabaseTime;
import io.axscheduler.scheduler.SchedulerCommands;
import io.axscheduler.scheduler.SchedulerProperties;
import io.axscheduler.scheduler.execute.ClaimedJob;
import io.axscheduler.scheduler.worker.RemoteLanes;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One claim batch, all or nothing: lock due rows with {@code FOR UPDATE SKIP LOCKED} (other nodes skip them and
 * take the next ones), send {@code ClaimJob} for each, commit once. Any command failure aborts the whole
 * transaction — catching and going on would let Axon roll back the shared connection under the claims already made
 * while the commit still reports success.
 */
@Component
public class ClaimDueJobs {

    private static final String COLUMNS = "job_id, job_type, attempt, job_key, params, executor_app, route_strategy, timeout_ms";
    private static final RowMapper<ClaimedJob> CLAIMED = (rs, i) -> new ClaimedJob(
            rs.getString("job_id"), rs.getString("job_type"), rs.getInt("attempt") + 1,
            rs.getString("job_key"), rs.getString("params"), rs.getString("executor_app"),
            rs.getString("route_strategy"), rs.getLong("timeout_ms"));
    /** In-process pools run only jobs bound to no executor app; bound ones go to that app's remote workers. */
    private static final String UNBOUND = "executor_app IS NULL";

    private final NamedParameterJdbcTemplate jdbc;
    private final TransactionTemplate transaction;
    private final SchedulerCommands commands;
    private final DatabaseTime databaseTime;
    private final SchedulerProperties.Scan settings;
    private final String node;

    public ClaimDueJobs(NamedParameterJdbcTemplate jdbc, TransactionTemplate transaction, SchedulerCommands commands,
                        DatabaseTime databaseTime, SchedulerProperties properties, @Value("${ax.node.id}") String node) {
        this.jdbc = jdbc;
        this.transaction = transaction;
        this.commands = commands;
        this.databaseTime = databaseTime;
        this.settings = properties.scan();
        this.node = node;
    }

    /**
     * Claims up to {@code freeSlots} jobs per type (and at most the batch size in all): first those that have waited
     * past the aging bound, oldest first, then the rest by priority and due time.
     */
    public List<ClaimedJob> claim(Map<String, Integer> freeSlots) {
        return claim(freeSlots, List.of());
    }

    /** As {@link #claim(Map)}, and up to each remote lane's free slots of jobs for remote workers in the same batch. */
    public List<ClaimedJob> claim(Map<String, Integer> freeSlots, List<RemoteLanes.Lane> remote) {
        return transaction.execute(tx -> {
            long now = databaseTime.nowMs();
            Map<String, ClaimedJob> chosen = new LinkedHashMap<>();
            for (Map.Entry<String, Integer> type : freeSlots.entrySet()) {
                if (!claimLane(type.getKey(), UNBOUND, Map.of(), type.getValue(), now, chosen)) break;
            }
            for (RemoteLanes.Lane lane : remote) {
                boolean room = lane.executorApp() == null
                        ? claimLane(lane.jobType(), UNBOUND, Map.of(), lane.freeSlots(), now, chosen)
                        : claimLane(lane.jobType(), "executor_app = :app", Map.of("app", lane.executorApp()), lane.freeSlots(), now, chosen);
                if (!room) break;
            }
            Instant leaseUntil = Instant.ofEpochMilli(now + settings.leaseMs());
            for (ClaimedJob job : chosen.values()) {
                commands.sendAndWait(new ClaimJob(job.jobId(), node, leaseUntil));
            }
            return new ArrayList<>(chosen.values());
        });
    }

    /** Claims up to {@code slots} jobs of one lane; false once the batch is full. */
    private boolean claimLane(String jobType, String lane, Map<String, Object> laneParams, int slots, long now,
                              Map<String, ClaimedJob> chosen) {
        int limit = Math.min(slots, settings.batchSize() - chosen.size());
        if (limit <= 0) return false;
        int aged = lockDue(jobType, lane, laneParams, now - settings.agingAfterMs(), "run_at", limit, 0, chosen);
        if (aged < limit) {
            lockDue(jobType, lane, laneParams, now, "neg_priority, run_at", limit - aged, aged, chosen);
        }
        return true;
    }

    /**
     * Adds up to {@code want} newly locked jobs to {@code chosen} and returns how many it added. Our own
     * transaction's locks are not skipped, so this pass may return the {@code alreadyHeld} rows an earlier pass
     * locked: it asks for that many more and de-duplicates by id.
     */
    private int lockDue(String jobType, String lane, Map<String, Object> laneParams, long dueBy, String order, int want,
                        int alreadyHeld, Map<String, ClaimedJob> chosen) {
        Map<String, Object> params = new java.util.HashMap<>(laneParams);
        params.putAll(Map.of("type", jobType, "dueBy", dueBy, "limit", want + alreadyHeld));
        List<ClaimedJob> rows = jdbc.query("SELECT " + COLUMNS + " FROM job_queue"
                        + " WHERE claimable = 1 AND job_type = :type AND " + lane + " AND run_at <= :dueBy"
                        + " ORDER BY " + order + " LIMIT :limit FOR UPDATE SKIP LOCKED",
                params, CLAIMED);
        int added = 0;
        for (ClaimedJob row : rows) {
            if (added == want) break;
            if (chosen.putIfAbsent(row.jobId(), row) == null) added++;
        }
        return added;
    }
}
