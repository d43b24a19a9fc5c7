package io.axscheduler.query.stats;

import io.axscheduler.api.Namespaces;
import io.axscheduler.api.job.JobCanceled;
import io.axscheduler.api.job.JobCreated;
import io.axscheduler.api.job.JobFailed;
import io.axscheduler.api.job.JobRetryScheduled;
import io.axscheduler.api.job.JobStarted;
import io.axscheduler.api.job.JobSucceeded;
import io.axscheduler.api.job.JobTimedOut;
import io.axscheduler.api.job.TimeoutPhase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.ResetHandler;
import org.axonframework.eventhandling.Timestamp;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The console's statistics: outcomes per minute by (namespace, job type, outcome) and a start-lag histogram per minute,
 * from the event stream on a pooled tracking processor, so they cost the command path nothing and a page view reads
 * a few hundred rows instead of the job table. A batch of events is summed in memory and written as one upsert per
 * touched bucket, in the transaction that stores the processor's token, so a crash never counts an event twice.
 *
 * <p>Outcome events do not carry the job type, nor does JobStarted the due time: both come from the job's earlier
 * events, kept in a bounded cache (a job's events all go to one segment, so to the node that saw its JobCreated),
 * and on a miss from job_queue (whose run_at may be a later retry's: such a lag reads low, never high).
 */
@Component
@ProcessingGroup(StatsProjection.PROCESSING_GROUP)
public class StatsProjection {

    public static final String PROCESSING_GROUP = "console-stats";
    static final long MINUTE_MS = 60_000;
    static final long HOUR_MS = 60 * MINUTE_MS;
    private static final int CACHE_ENTRIES = 100_000;
    private static final String RESOURCE = StatsProjection.class.getName() + ".batch";

    private final NamedParameterJdbcTemplate jdbc;
    private final Map<String, JobFacts> jobs = Collections.synchronizedMap(new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, JobFacts> eldest) {
            return size() > CACHE_ENTRIES;
        }
    });

    public StatsProjection(NamedParameterJdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    record JobFacts(String namespace, String jobType, long dueAt) {
        JobFacts due(long at) {
            return new JobFacts(namespace, jobType, at);
        }
    }

    /**
     * One event's contribution, with the job's facts as they stood when it was handled (null when this node has not
     * seen the job: then read from job_queue when the batch is written).
     */
    private record Tally(String jobId, long at, String outcome, boolean start, JobFacts facts) {}

    @EventHandler
    void on(JobCreated e, @Timestamp Instant at) {
        jobs.put(e.jobId(), new JobFacts(e.namespace(), e.jobType(), e.runAt().toEpochMilli()));
        add(e.jobId(), at, "CREATED", false);
    }

    @EventHandler
    void on(JobRetryScheduled e) {
        jobs.computeIfPresent(e.jobId(), (id, facts) -> facts.due(e.runAt().toEpochMilli()));
    }

    @EventHandler
    void on(JobStarted e, @Timestamp Instant at) {
        add(e.jobId(), at, null, true);
    }

    @EventHandler
    void on(JobSucceeded e, @Timestamp Instant at) {
        add(e.jobId(), at, "SUCCEEDED", false);
    }

    @EventHandler
    void on(JobFailed e, @Timestamp Instant at) {
        add(e.jobId(), at, "FAILED", false);
    }

    @EventHandler
    void on(JobTimedOut e, @Timestamp Instant at) {
        if (e.phase() == TimeoutPhase.RUN) add(e.jobId(), at, "TIMED_OUT", false);
    }

    @EventHandler
    void on(JobCanceled e, @Timestamp Instant at) {
        add(e.jobId(), at, "CANCELED", false);
    }

    @ResetHandler
    void reset() {
        jobs.clear();
        jdbc.getJdbcTemplate().update("DELETE FROM stats_outcomes");
        jdbc.getJdbcTemplate().update("DELETE FROM stats_outcomes_hourly");
        jdbc.getJdbcTemplate().update("DELETE FROM stats_start_lag");
    }

    private void add(String jobId, Instant at, String outcome, boolean start) {
        Tally tally = new Tally(jobId, at.toEpochMilli(), outcome, start, jobs.get(jobId));
        if (!CurrentUnitOfWork.isStarted()) {
            write(List.of(tally));
            return;
        }
        UnitOfWork<?> unit = CurrentUnitOfWork.get().root();
        unit.<List<Tally>>getOrComputeResource(RESOURCE, key -> {
                    List<Tally> batch = new ArrayList<>();
                    unit.onPrepareCommit(u -> write(batch));
                    return batch;
                })
                .add(tally);
    }

    private void write(List<Tally> batch) {
        Map<String, JobFacts> facts = factsOf(batch);
        Map<List<Object>, Long> outcomes = new TreeMap<>(StatsProjection::compareKeys);
        Map<List<Object>, Long> hourly = new TreeMap<>(StatsProjection::compareKeys);
        Map<List<Object>, Long> lags = new TreeMap<>(StatsProjection::compareKeys);
        for (Tally t : batch) {
            JobFacts f = t.facts() != null ? t.facts() : facts.get(t.jobId());
            if (f == null) continue; // a job whose row is gone and that this node never saw: nothing to attribute
            long minute = Math.floorDiv(t.at(), MINUTE_MS) * MINUTE_MS;
            if (t.start()) {
                lags.merge(List.of(minute, f.namespace(), StartLagBuckets.bucketOf(t.at() - f.dueAt())), 1L, Long::sum);
            } else {
                outcomes.merge(List.of(minute, f.namespace(), f.jobType(), t.outcome()), 1L, Long::sum);
                long hour = Math.floorDiv(t.at(), HOUR_MS) * HOUR_MS;
                hourly.merge(List.of(hour, f.namespace(), f.jobType(), t.outcome()), 1L, Long::sum);
            }
        }
        // sorted keys: two nodes' batches lock shared bucket rows in one order and cannot deadlock on them
        upsert(
                "INSERT INTO stats_outcomes (minute_at, namespace, job_type, outcome, jobs)"
                        + " VALUES (:k0, :k1, :k2, :k3, :n) ON DUPLICATE KEY UPDATE jobs = jobs + :n",
                outcomes);
        upsert(
                "INSERT INTO stats_outcomes_hourly (hour_at, namespace, job_type, outcome, jobs)"
                        + " VALUES (:k0, :k1, :k2, :k3, :n) ON DUPLICATE KEY UPDATE jobs = jobs + :n",
                hourly);
        upsert(
                "INSERT INTO stats_start_lag (minute_at, namespace, bucket, starts)"
                        + " VALUES (:k0, :k1, :k2, :n) ON DUPLICATE KEY UPDATE starts = starts + :n",
                lags);
    }

    private Map<String, JobFacts> factsOf(List<Tally> batch) {
        Map<String, JobFacts> found = new HashMap<>();
        List<String> missing = new ArrayList<>();
        for (Tally t : batch) {
            if (t.facts() == null) missing.add(t.jobId());
        }
        List<String> ids = missing.stream().distinct().toList();
        if (!ids.isEmpty()) {
            jdbc.query(
                    "SELECT job_id, job_type, run_at, namespace FROM job_queue WHERE job_id IN (:ids)",
                    Map.of("ids", ids),
                    rs -> {
                        JobFacts f =
                                new JobFacts(Namespaces.orDefault(rs.getString(4)), rs.getString(2), rs.getLong(3));
                        found.put(rs.getString(1), f);
                        jobs.put(rs.getString(1), f);
                    });
        }
        return found;
    }

    private void upsert(String sql, Map<List<Object>, Long> counts) {
        if (counts.isEmpty()) return;
        MapSqlParameterSource[] rows = counts.entrySet().stream()
                .map(entry -> {
                    MapSqlParameterSource row = new MapSqlParameterSource("n", entry.getValue());
                    for (int i = 0; i < entry.getKey().size(); i++)
                        row.addValue("k" + i, entry.getKey().get(i));
                    return row;
                })
                .toArray(MapSqlParameterSource[]::new);
        jdbc.batchUpdate(sql, rows);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compareKeys(List<Object> a, List<Object> b) {
        for (int i = 0; i < a.size(); i++) {
            int c = ((Comparable) a.get(i)).compareTo(b.get(i));
            if (c != 0) return c;
        }
        return 0;
    }
}
