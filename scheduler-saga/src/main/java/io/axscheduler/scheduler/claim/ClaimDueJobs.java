package io.axscheduler.scheduler.claim;

import io.axscheduler.api.job.ClaimJob;
import io.axscheduler.api.job.JobCommand;
import io.axscheduler.api.job.JobCommandBatch;
import io.axscheduler.api.job.StartJob;
import io.axscheduler.scheduler.ClaimedJob;
import io.axscheduler.scheduler.DatabaseTime;
import io.axscheduler.scheduler.NodeProperties;
import io.axscheduler.scheduler.SchedulerCommands;
import io.axscheduler.scheduler.SchedulerProperties;
import io.axscheduler.scheduler.remote.RemoteLanes;
import io.axscheduler.scheduler.run.DispatchClaimed;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * One claim batch: lock due rows with {@code FOR UPDATE SKIP LOCKED} (other nodes skip them and take the next ones),
 * send the claims — and, for this node's own pools, the starts — as one {@link io.axscheduler.api.job.JobCommandBatch},
 * commit once. A job that refuses is left out of the answer (only what the jobs accepted is returned, and only that
 * commits); a failure of the batch itself — the append found that another node moved one of the jobs — rolls back
 * all of it, and the next scan tries again.
 */
@Component
public class ClaimDueJobs {

    private static final Logger log = LoggerFactory.getLogger(ClaimDueJobs.class);
    private static final String COLUMNS =
            "job_id, job_type, attempt, job_key, params, executor_app, route_strategy, timeout_ms, run_at, namespace";
    /**
     * Priorities one lane's pass claims from at most: further ones (when as many higher ones had no due job) wait for
     * the next pass, or for the aging pass once they have waited past its bound.
     */
    private static final int MAX_PRIORITIES_A_PASS = 16;
    /** In-process pools run only jobs bound to no executor app; bound ones go to that app's remote workers. */
    private static final String UNBOUND = "executor_app IS NULL";

    private final NamedParameterJdbcTemplate jdbc;
    private final TransactionTemplate transaction;
    private final SchedulerCommands commands;
    private final DatabaseTime databaseTime;
    private final SchedulerProperties.Scan settings;
    private final String node;
    /** A locked job_queue row as the job it claims, due at its run_at on this JVM's clock. */
    private final RowMapper<ClaimedJob> claimedJobOfRow;

    private final DrainedLanes drainedLanes = new DrainedLanes();
    private final AtomicLong transactions = new AtomicLong();
    private final Clock clock;

    public ClaimDueJobs(
            NamedParameterJdbcTemplate jdbc,
            TransactionTemplate transaction,
            SchedulerCommands commands,
            DatabaseTime databaseTime,
            SchedulerProperties properties,
            Clock clock,
            NodeProperties node) {
        this.clock = clock;
        this.jdbc = jdbc;
        this.transaction = transaction;
        this.commands = commands;
        this.databaseTime = databaseTime;
        this.settings = properties.scan();
        this.node = node.id();
        this.claimedJobOfRow = (rs, i) -> new ClaimedJob(
                rs.getString("job_id"),
                rs.getString("job_type"),
                rs.getInt("attempt") + 1,
                rs.getString("job_key"),
                rs.getString("params"),
                rs.getString("executor_app"),
                rs.getString("route_strategy"),
                rs.getLong("timeout_ms"),
                false,
                databaseTime.localMs(rs.getLong("run_at")),
                rs.getString("namespace"));
    }

    /**
     * Claims up to {@code freeSlots} jobs per type (and at most the batch size in all): first those that have waited
     * past the aging bound, oldest first, then the rest by priority and due time.
     */
    public List<ClaimedJob> claim(Map<String, Integer> freeSlots) {
        return claim(freeSlots, List.of()).jobs();
    }

    /**
     * What a claim batch committed, and whether it left a due job behind because the job's aggregate was busy with
     * another command (see {@code AggregateLocks}): most often the command that made it, still releasing its lock
     * after the commit that woke the scan, so a pass a moment later finds it free.
     */
    public record Claim(List<ClaimedJob> jobs, boolean leftBusy) {
        static final Claim NONE = new Claim(List.of(), false);
    }

    /**
     * As {@link #claim(Map)}, and up to each remote lane's free slots of jobs for remote workers in the same batch.
     * Jobs for this node's pools are claimed and started in the one batch (JobClaimed, JobStarted): they run as soon
     * as it commits, and the answer marks them {@link ClaimedJob#started()}. Those may be claimed up to the claim
     * look-ahead before they are due; they then run at their due time. A job left behind as busy keeps its lane open
     * for the next pass.
     */
    public Claim claim(Map<String, Integer> freeSlots, List<RemoteLanes.Lane> remote) {
        long passStart = clock.millis();
        // every lane drained: the transaction would query nothing
        if (freeSlots.keySet().stream().allMatch(type -> drainedLanes.isQuiet(inProcessLane(type), passStart))
                && remote.stream().allMatch(lane -> drainedLanes.isQuiet(remoteLane(lane), passStart))) {
            return Claim.NONE;
        }
        transactions.incrementAndGet();
        // which lanes came back short is only known to be true once the batch commits
        Map<DrainedLanes.Lane, Boolean> cameBackShort = new HashMap<>();
        Set<String> leftBusy = new HashSet<>();
        List<ClaimedJob> claimed = transaction.execute(tx -> {
            Map<String, ClaimedJob> chosen = new LinkedHashMap<>();
            for (Map.Entry<String, Integer> type : freeSlots.entrySet()) {
                if (!claimLane(
                        inProcessLane(type.getKey()), type.getValue(), settings.claimAheadMs(), chosen, cameBackShort))
                    break;
            }
            Set<String> inProcess = new HashSet<>(chosen.keySet());
            // a worker runs what it is pushed at once: a job for one is claimed when due, never ahead
            for (RemoteLanes.Lane lane : remote) {
                if (!claimLane(remoteLane(lane), lane.freeSlots(), 0, chosen, cameBackShort)) break;
            }
            // due-ness is the database's NOW(3) inside each lane's statement; a lease's end need not be that exact
            Instant leaseUntil = Instant.ofEpochMilli(databaseTime.approximateNowMs() + settings.leaseMs());
            List<ClaimedJob> locked = new ArrayList<>(chosen.values());
            List<JobCommand> batch = new ArrayList<>(locked.size() * 2);
            int[] firstCommand = new int[locked.size() + 1];
            for (int i = 0; i < locked.size(); i++) {
                ClaimedJob job = locked.get(i);
                firstCommand[i] = batch.size();
                batch.add(new ClaimJob(job.jobId(), node, leaseUntil));
                if (inProcess.contains(job.jobId())) {
                    batch.add(new StartJob(job.jobId(), job.attempt(), node, DispatchClaimed.IN_PROCESS_WORKER));
                }
            }
            firstCommand[locked.size()] = batch.size();
            // the rows are held: a job busy with an operator's command is skipped, not waited for (that command may be
            // waiting for its row as it commits)
            List<String> refusals = commands.sendBatchHoldingRows(batch);
            List<ClaimedJob> accepted = new ArrayList<>(locked.size());
            for (int i = 0; i < locked.size(); i++) {
                ClaimedJob job = locked.get(i);
                // a refused claim makes its start refused too: the first refusal says why
                String refusal = refusals.subList(firstCommand[i], firstCommand[i + 1]).stream()
                        .filter(Objects::nonNull)
                        .findFirst()
                        .orElse(null);
                if (refusal != null && refusal.startsWith(JobCommandBatch.BUSY)) {
                    leftBusy.add(job.jobType());
                    log.debug("job {} left for a later pass: {}", job.jobId(), refusal);
                } else if (refusal != null)
                    log.warn("job_queue offered job {} but the job refused the claim: {}", job.jobId(), refusal);
                else accepted.add(inProcess.contains(job.jobId()) ? job.startedHere() : job);
            }
            return accepted;
        });
        drainedLanes.afterPass(cameBackShort, passStart, clock.millis() + settings.minIntervalMs());
        if (!leftBusy.isEmpty()) {
            // the lane may have come back short (the busy job counted among its rows) and gone quiet: the next pass
            // must query it again
            long now = clock.millis();
            leftBusy.forEach(type -> drainedLanes.expect(type, now, now));
        }
        return new Claim(claimed, !leftBusy.isEmpty());
    }

    /**
     * Whether a claim pass may find due work of the in-process type now: false while its lane is drained (see
     * {@link DrainedLanes}), so that a pass takes no pool slots it would not fill.
     */
    public boolean mayFind(String jobType) {
        return !drainedLanes.isQuiet(inProcessLane(jobType), clock.millis());
    }

    /** Claim transactions this node has run since it started, whatever they found. */
    public long transactions() {
        return transactions.get();
    }

    private static DrainedLanes.Lane inProcessLane(String jobType) {
        return new DrainedLanes.Lane(jobType, UNBOUND, Map.of());
    }

    /** A remote lane takes only its namespace's jobs: its workers are registered there, and run nothing else. */
    private static DrainedLanes.Lane remoteLane(RemoteLanes.Lane lane) {
        return lane.executorApp() == null
                ? new DrainedLanes.Lane(
                        lane.jobType(), UNBOUND + " AND namespace = :ns", Map.of("ns", lane.namespace()))
                : new DrainedLanes.Lane(
                        lane.jobType(),
                        "executor_app = :app AND namespace = :ns",
                        Map.of("app", lane.executorApp(), "ns", lane.namespace()));
    }

    /**
     * Work of {@code jobType} (every type when null) falls due at {@code atLocalMs} (this JVM's clock): a lane found
     * empty is queried again from then on, not only after its quiet spell.
     */
    public void expect(String jobType, long atLocalMs) {
        drainedLanes.expect(jobType, atLocalMs, clock.millis());
    }

    /**
     * Claims up to {@code slots} jobs of one lane, due now or within {@code aheadMs}; false once the batch is full. A
     * lane that came back with less than it asked for has no more due work: it is left out of the passes of the next
     * scan interval (the regular tick's cadence, for work other nodes made) unless this node makes work of its type
     * that falls due sooner.
     */
    private boolean claimLane(
            DrainedLanes.Lane lane,
            int slots,
            long aheadMs,
            Map<String, ClaimedJob> chosen,
            Map<DrainedLanes.Lane, Boolean> cameBackShort) {
        int limit = Math.min(slots, settings.batchSize() - chosen.size());
        if (limit <= 0) return false;
        if (drainedLanes.isQuiet(lane, clock.millis())) return true;
        Priorities priorities = priorities(lane);
        if (priorities == null) { // nothing of the type is claimable
            cameBackShort.put(lane, true);
            return true;
        }
        // jobs waited past the aging bound first, whatever their priority; with one priority among the claimable rows
        // its own read below takes them first anyway (due order), so the statement is left out
        int aged = priorities.one() ? 0 : lockDue(lane, settings.agingAfterMs(), null, limit, 0, chosen);
        int got = aged;
        // then by priority, highest first: each priority's due rows in due order, so that the rows not due yet (a
        // day's delayed jobs, fires made ahead) are never read; ordered by (priority, due) in one statement, MariaDB
        // walked every claimable row of the type whenever fewer than the limit were due
        Integer negPriority = got < limit ? priorities.highest() : null;
        for (int read = 1; negPriority != null; read++) {
            got += lockDue(lane, -aheadMs, negPriority, limit - got, aged, chosen);
            negPriority = got < limit && read < MAX_PRIORITIES_A_PASS && negPriority < priorities.lowest()
                    ? nextPriority(lane, negPriority)
                    : null;
        }
        cameBackShort.put(lane, got < limit);
        return true;
    }

    /** The highest and the lowest priority of a lane's claimable rows, as {@code neg_priority} (higher is less). */
    private record Priorities(int highest, int lowest) {
        boolean one() {
            return highest == lowest;
        }
    }

    /**
     * The highest and the lowest priority among the lane's job type's claimable rows, due or not; null when there is
     * none. Two index dives in one statement.
     */
    private Priorities priorities(DrainedLanes.Lane lane) {
        return jdbc.query(
                "SELECT MIN(neg_priority), MAX(neg_priority) FROM job_queue WHERE claimable = 1 AND job_type = :type",
                Map.of("type", lane.jobType()),
                rs -> {
                    if (!rs.next()) return null;
                    int highest = rs.getInt(1);
                    return rs.wasNull() ? null : new Priorities(highest, rs.getInt(2));
                });
    }

    /**
     * The next priority (as {@code neg_priority}) below {@code after}, among the lane's job type's claimable rows, due
     * or not; null when there is none. One index dive.
     */
    private Integer nextPriority(DrainedLanes.Lane lane, int after) {
        return jdbc.queryForObject(
                "SELECT MIN(neg_priority) FROM job_queue WHERE claimable = 1 AND job_type = :type"
                        + " AND neg_priority > :after",
                Map.of("type", lane.jobType(), "after", after),
                Integer.class);
    }

    /**
     * Adds up to {@code want} newly locked jobs due at least {@code dueMsAgo} ago (a negative value: due within that
     * much from now), of the given priority (any when null), oldest due first, to {@code chosen} and returns how many
     * it added. Our own transaction's locks are not skipped, so this pass may return the {@code alreadyHeld} rows an
     * earlier pass locked: it asks for that many more and de-duplicates by id.
     */
    private int lockDue(
            DrainedLanes.Lane lane,
            long dueMsAgo,
            Integer negPriority,
            int want,
            int alreadyHeld,
            Map<String, ClaimedJob> chosen) {
        Map<String, Object> params = new HashMap<>(lane.params());
        params.putAll(Map.of("type", lane.jobType(), "ago", dueMsAgo, "limit", want + alreadyHeld));
        if (negPriority != null) params.put("negPriority", negPriority);
        List<ClaimedJob> rows = jdbc.query(
                "SELECT " + COLUMNS + " FROM job_queue"
                        + " WHERE claimable = 1 AND job_type = :type AND "
                        + (negPriority == null ? "" : "neg_priority = :negPriority AND ")
                        + lane.condition() + " AND run_at <= " + DatabaseTime.NOW_MS + " - :ago"
                        + " ORDER BY run_at LIMIT :limit FOR UPDATE SKIP LOCKED",
                params,
                claimedJobOfRow);
        int added = 0;
        for (ClaimedJob row : rows) {
            if (added == want) break;
            if (chosen.putIfAbsent(row.jobId(), row) == null) added++;
        }
        return added;
    }
}
