package io.axscheduler.scheduler.remote;

import io.axscheduler.api.TextLimit;
import io.axscheduler.api.worker.JobCallback;
import io.axscheduler.api.worker.StopRun;
import io.axscheduler.scheduler.DatabaseTime;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The {@code worker_dispatches} table: which worker runs which attempt (or shard), and how each shard ended. A
 * callback counts only against a PUSHED row of the worker that sends it; the rows of one attempt are locked
 * together, so of two shards ending at once on two nodes exactly one sees that the last shard ended.
 */
@Component
public class WorkerDispatches {

    private final NamedParameterJdbcTemplate jdbc;
    private final TransactionTemplate transaction;

    public WorkerDispatches(NamedParameterJdbcTemplate jdbc, TransactionTemplate transaction) {
        this.jdbc = jdbc;
        this.transaction = transaction;
    }

    /**
     * One attempt (or shard) ended here ({@code counted}: this callback changed its row); {@code outcome} is what to
     * tell the job, or null when nothing is to be told.
     */
    public record Applied(boolean counted, Outcome outcome) {
        static final Applied IGNORED = new Applied(false, null);
    }

    /** What the attempt's callbacks add up to: all shards succeeded, or one failed. */
    public record Outcome(
            boolean succeeded, String result, String error, long durationMs, String workers, int shards) {}

    public record Attempt(String jobId, int attempt) {}

    private record Shard(
            int index, int total, String workerId, String status, String result, String error, long durationMs) {}

    /** The attempt (shard) goes to {@code workerId}; a retried push to another worker takes the row over. */
    public void pushing(String jobId, int attempt, int shardIndex, int shardTotal, String workerId) {
        jdbc.update(
                "INSERT INTO worker_dispatches (job_id, attempt, shard_index, shard_total, worker_id, status, pushed_at)"
                        + " VALUES (:job, :attempt, :shard, :total, :worker, 'PUSHED', " + DatabaseTime.NOW_MS + ")"
                        + " ON DUPLICATE KEY UPDATE worker_id = :worker, status = 'PUSHED', shard_total = :total,"
                        + " pushed_at = " + DatabaseTime.NOW_MS,
                Map.of("job", jobId, "attempt", attempt, "shard", shardIndex, "total", shardTotal, "worker", workerId));
    }

    /** No worker took the push: the claim goes back, and with it this row. */
    public void forget(String jobId, int attempt) {
        jdbc.update(
                "DELETE FROM worker_dispatches WHERE job_id = :job AND attempt = :attempt",
                Map.of("job", jobId, "attempt", attempt));
    }

    /** Workers that ran earlier attempts of the job: a retry prefers others. */
    public Set<String> workersThatRan(String jobId, int beforeAttempt) {
        return new HashSet<>(jdbc.queryForList(
                "SELECT DISTINCT worker_id FROM worker_dispatches" + " WHERE job_id = :job AND attempt < :attempt",
                Map.of("job", jobId, "attempt", beforeAttempt),
                String.class));
    }

    /**
     * A PUSHED row {@code d} (no outcome came) whose run the job {@code q} no longer counts: the job was canceled or
     * is gone, a later attempt started, or the row's attempt started ({@code job_queue.attempt} is the last started)
     * and the job is no longer running it (it ended, waits for its retry, or is being claimed again). A row of an
     * attempt being claimed or started is never one: its attempt is above the last started.
     */
    private static final String NO_LONGER_COUNTED = " (q.job_id IS NULL OR q.status = 'CANCELED' OR q.attempt >"
            + " d.attempt OR (q.attempt = d.attempt AND q.status <> 'RUNNING'))";

    /** Runs {@code workerId} holds that the job no longer counts as running, with why; at most {@code limit}. */
    public List<StopRun> toStop(String workerId, int limit) {
        return jdbc.query(
                "SELECT d.job_id, d.attempt, d.shard_index, q.status, q.attempt FROM worker_dispatches d"
                        + " LEFT JOIN job_queue q ON q.job_id = d.job_id"
                        + " WHERE d.worker_id = :worker AND d.status = 'PUSHED' AND" + NO_LONGER_COUNTED
                        + " LIMIT " + limit,
                Map.of("worker", workerId),
                (rs, i) -> {
                    int attempt = rs.getInt(2);
                    return new StopRun(
                            rs.getString(1), attempt, rs.getInt(3), stopReason(rs.getString(4), rs.getInt(5), attempt));
                });
    }

    /** Why a run stops, from the job's row ({@code status} null: the job is gone). */
    static String stopReason(String status, int jobAttempt, int runAttempt) {
        if (status == null) return "the job no longer exists";
        if ("CANCELED".equals(status)) return "the job was canceled";
        if (jobAttempt > runAttempt) return "attempt " + jobAttempt + " of the job runs now";
        if ("RETRY_WAITING".equals(status)) return "attempt " + runAttempt + " ended; the job waits for its retry";
        if ("CLAIMED".equals(status) || "WAITING".equals(status))
            return "attempt " + runAttempt + " ended; the job is to run again";
        return "attempt " + runAttempt + " ended " + status;
    }

    /**
     * The runs of {@code jobId} pushed to registered workers, not reported, and no longer counted by the job: what a
     * cancel or an attempt's end stops at once. Judged when the stop is sent, so a later attempt's runs, pushed
     * meanwhile, are never among them.
     */
    public List<Pushed> pushedOf(Collection<String> jobIds) {
        return pushed("d.job_id IN (:ids) AND" + NO_LONGER_COUNTED, jobIds);
    }

    /**
     * The runs pushed to {@code workerId} and not reported, with what a stop needs (its address and secret): read
     * before the worker is removed, which deletes both.
     */
    public List<Pushed> pushedTo(String workerId) {
        return pushed("d.worker_id IN (:ids)", List.of(workerId));
    }

    private List<Pushed> pushed(String where, Collection<String> ids) {
        return jdbc.query(
                "SELECT d.worker_id, w.address, w.secret, d.job_id, d.attempt, d.shard_index FROM worker_dispatches d"
                        + " JOIN workers w ON w.worker_id = d.worker_id LEFT JOIN job_queue q ON q.job_id = d.job_id"
                        + " WHERE " + where + " AND d.status = 'PUSHED'",
                Map.of("ids", ids),
                (rs, i) -> new Pushed(
                        rs.getString(1),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getString(4),
                        rs.getInt(5),
                        rs.getInt(6)));
    }

    /** A run a worker was pushed and has not reported, and how to reach the worker. */
    public record Pushed(String workerId, String address, String secret, String jobId, int attempt, int shardIndex) {

        @Override
        public String toString() {
            // never the secret, should a run be logged
            return "run of job " + jobId + " attempt " + attempt + " shard " + shardIndex + " on " + workerId;
        }
    }

    /** Marks everything the removed workers were running LOST and returns those attempts, each once. */
    public List<Attempt> lostWith(List<String> workerIds) {
        if (workerIds.isEmpty()) return List.of();
        return transaction.execute(tx -> {
            Map<String, Object> ids = Map.of("ids", workerIds);
            List<Attempt> lost = jdbc.query(
                    "SELECT DISTINCT job_id, attempt FROM worker_dispatches"
                            + " WHERE worker_id IN (:ids) AND status = 'PUSHED' FOR UPDATE",
                    ids,
                    (rs, i) -> new Attempt(rs.getString("job_id"), rs.getInt("attempt")));
            jdbc.update(
                    "UPDATE worker_dispatches SET status = 'LOST' WHERE worker_id IN (:ids) AND status = 'PUSHED'",
                    ids);
            return lost;
        });
    }

    /**
     * Records a callback against its PUSHED row. A callback from another worker than the row's, for an unknown
     * attempt, or for a shard that already ended (a duplicate) counts for nothing.
     */
    public Applied record(JobCallback callback) {
        return transaction.execute(tx -> {
            List<Shard> shards = jdbc.query(
                    "SELECT shard_index, shard_total, worker_id, status, result, error, duration_ms"
                            + " FROM worker_dispatches WHERE job_id = :job AND attempt = :attempt ORDER BY shard_index FOR UPDATE",
                    Map.of("job", callback.jobId(), "attempt", callback.attempt()),
                    (rs, i) -> new Shard(
                            rs.getInt(1),
                            rs.getInt(2),
                            rs.getString(3),
                            rs.getString(4),
                            rs.getString(5),
                            rs.getString(6),
                            rs.getLong(7)));
            Shard mine = shards.stream()
                    .filter(s -> s.index() == callback.shardIndex())
                    .findFirst()
                    .orElse(null);
            if (mine == null || !mine.workerId().equals(callback.workerId())) return Applied.IGNORED;
            if ("SUCCEEDED".equals(mine.status()) || "FAILED".equals(mine.status())) {
                // told before: the outcome its row holds is told to the job again, which refuses it unless the
                // first telling was lost (the node failed, or lost a race, between this row's commit and the job's
                // command) and the attempt still runs
                JobCallback stored = new JobCallback(
                        mine.workerId(),
                        callback.jobId(),
                        callback.attempt(),
                        mine.index(),
                        "SUCCEEDED".equals(mine.status()),
                        mine.result(),
                        mine.error(),
                        mine.durationMs());
                return new Applied(false, outcomeOf(shards, mine, stored));
            }
            if (!"PUSHED".equals(mine.status())) return Applied.IGNORED;
            String status = callback.succeeded() ? "SUCCEEDED" : "FAILED";
            int updated = jdbc.update(
                    "UPDATE worker_dispatches SET status = :status, result = :result, error = :error,"
                            + " duration_ms = :duration WHERE job_id = :job AND attempt = :attempt AND shard_index = :shard"
                            + " AND status = 'PUSHED'",
                    new MapSqlParameterSource()
                            .addValue("status", status)
                            .addValue("result", TextLimit.truncate(callback.result()))
                            .addValue("error", TextLimit.truncate(callback.error()))
                            .addValue("duration", callback.durationMs())
                            .addValue("job", callback.jobId())
                            .addValue("attempt", callback.attempt())
                            .addValue("shard", callback.shardIndex()));
            if (updated != 1) throw new IllegalStateException("shard row changed under its lock: " + callback);
            List<Shard> now = shards.stream()
                    .map(s -> s == mine
                            ? new Shard(
                                    s.index(),
                                    s.total(),
                                    s.workerId(),
                                    status,
                                    callback.result(),
                                    callback.error(),
                                    callback.durationMs())
                            : s)
                    .toList();
            return new Applied(true, outcomeOf(now, mine, callback));
        });
    }

    /**
     * One shard: its own outcome. Several: the first failure fails the attempt at once (later shards then change
     * nothing); success only when every shard of the broadcast succeeded.
     */
    private static Outcome outcomeOf(List<Shard> shards, Shard mine, JobCallback callback) {
        int total = mine.total();
        String workers = shards.stream().map(Shard::workerId).distinct().collect(Collectors.joining(","));
        if (total == 1) {
            return new Outcome(
                    callback.succeeded(),
                    callback.result(),
                    callback.error(),
                    callback.durationMs(),
                    mine.workerId(),
                    1);
        }
        if (!callback.succeeded()) {
            return new Outcome(
                    false,
                    null,
                    "shard " + mine.index() + " of " + total + " failed on " + mine.workerId() + ": "
                            + callback.error(),
                    callback.durationMs(),
                    workers,
                    total);
        }
        long succeeded =
                shards.stream().filter(s -> "SUCCEEDED".equals(s.status())).count();
        boolean anyFailed = shards.stream().anyMatch(s -> "FAILED".equals(s.status()));
        if (anyFailed || succeeded < total || shards.size() < total) return null;
        long longest = shards.stream().mapToLong(Shard::durationMs).max().orElse(0);
        String result = shards.stream()
                .map(s -> s.index() + ":" + (s.result() == null ? "" : s.result()))
                .collect(Collectors.joining("; ", "all " + total + " shards succeeded: ", ""));
        return new Outcome(true, result, null, longest, workers, total);
    }
}
