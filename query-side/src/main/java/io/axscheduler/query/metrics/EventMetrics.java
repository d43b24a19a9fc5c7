package io.axscheduler.query.metrics;

import io.axscheduler.api.job.HandBackReason;
import io.axscheduler.api.job.JobCanceled;
import io.axscheduler.api.job.JobCreated;
import io.axscheduler.api.job.JobFailed;
import io.axscheduler.api.job.JobHandedBack;
import io.axscheduler.api.job.JobRetryScheduled;
import io.axscheduler.api.job.JobStarted;
import io.axscheduler.api.job.JobSucceeded;
import io.axscheduler.api.job.JobTimedOut;
import io.axscheduler.api.job.TimeoutPhase;
import io.axscheduler.api.observe.BoundedLabels;
import io.axscheduler.api.observe.LatencyBuckets;
import io.axscheduler.api.schedule.FireKind;
import io.axscheduler.api.schedule.ScheduleFireQueued;
import io.axscheduler.api.schedule.ScheduleFireSkipped;
import io.axscheduler.api.schedule.ScheduleFired;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.Timestamp;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Job and schedule counters and histograms taken from the event stream. It runs in a subscribing processor, so each
 * event is seen once, by the node that published it, and counted when its transaction commits: summed over the nodes,
 * each job is counted once (a rolled-back claim batch counts nothing). It never fails the append it rides on: a
 * metric it cannot take is logged and dropped.
 *
 * <p>Outcome events do not name the job type nor the namespace; the namespace, type and due time of the jobs this node
 * saw lately are kept (at most {@value #KNOWN_JOBS}), and one of another node's is read from job_queue by its key.
 */
@Component
@ProcessingGroup(EventMetrics.PROCESSING_GROUP)
public class EventMetrics {

    public static final String PROCESSING_GROUP = "ax-metrics";
    static final int KNOWN_JOBS = 20_000;
    /** Job types are named by users: each type label keeps at most this many values. */
    static final int MAX_TYPES = 200;

    private static final Logger log = LoggerFactory.getLogger(EventMetrics.class);

    private record Job(String namespace, String jobType, long dueAtMs) {}

    private final MeterRegistry registry;
    private final NamedParameterJdbcTemplate jdbc;
    private final BoundedLabels types = new BoundedLabels(MAX_TYPES);
    private final Map<String, Job> known = new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Job> eldest) {
            return size() > KNOWN_JOBS;
        }
    };

    public EventMetrics(ObjectProvider<MeterRegistry> registry, NamedParameterJdbcTemplate jdbc) {
        this.registry = registry.getIfAvailable(SimpleMeterRegistry::new);
        this.jdbc = jdbc;
        // at 0 from the start, each reason: an alert on the rate sees a series before the first hand-back
        for (HandBackReason reason : HandBackReason.values()) {
            this.registry.counter(
                    "ax.claims.handed.back", "reason", reason.name().toLowerCase(Locale.ROOT));
        }
        this.registry.counter("ax.leases.expired");
    }

    @EventHandler
    void on(JobCreated e) {
        Job job = new Job(e.namespace(), types.of(e.jobType()), e.runAt().toEpochMilli());
        remember(e.jobId(), job);
        afterCommit(() -> registry.counter("ax.jobs.submitted", "namespace", job.namespace(), "job_type", job.jobType())
                .increment());
    }

    @EventHandler
    void on(JobRetryScheduled e) {
        Job job = job(e.jobId());
        if (job == null) return;
        remember(e.jobId(), new Job(job.namespace(), job.jobType(), e.runAt().toEpochMilli()));
        afterCommit(() -> registry.counter("ax.job.retries", "namespace", job.namespace(), "job_type", job.jobType())
                .increment());
    }

    @EventHandler
    void on(JobStarted e, @Timestamp Instant at) {
        Job job = job(e.jobId());
        if (job == null) return;
        // a job claimed ahead starts a moment before it is due: no lag
        long lagMs = Math.max(0, at.toEpochMilli() - job.dueAtMs());
        afterCommit(() -> latency("ax.job.start.lag", "how long after its due time a job's run started")
                .tag("namespace", job.namespace())
                .register(registry)
                .record(lagMs, TimeUnit.MILLISECONDS));
    }

    @EventHandler
    void on(JobSucceeded e) {
        finished(e.jobId(), "succeeded", e.durationMs());
    }

    @EventHandler
    void on(JobFailed e) {
        finished(e.jobId(), "failed", e.durationMs());
    }

    @EventHandler
    void on(JobTimedOut e) {
        if (e.phase() == TimeoutPhase.CLAIM) {
            afterCommit(() -> registry.counter("ax.leases.expired").increment());
            return;
        }
        finished(e.jobId(), "timed_out", -1);
    }

    @EventHandler
    void on(JobHandedBack e) {
        String reason = e.reason() == null ? "unknown" : e.reason().name().toLowerCase(Locale.ROOT);
        afterCommit(() ->
                registry.counter("ax.claims.handed.back", "reason", reason).increment());
    }

    @EventHandler
    void on(JobCanceled e) {
        finished(e.jobId(), "canceled", -1);
    }

    @EventHandler
    void on(ScheduleFired e, @Timestamp Instant at) {
        long lagMs = Math.max(0, at.toEpochMilli() - e.fireTime().toEpochMilli());
        afterCommit(() -> {
            fire(e.namespace(), "fired");
            if (e.kind() == FireKind.SCHEDULED) {
                latency(
                                "ax.schedule.fire.lag",
                                "how long after its fire time a schedule's fire was made (0 when made ahead)")
                        .tag("namespace", e.namespace())
                        .register(registry)
                        .record(lagMs, TimeUnit.MILLISECONDS);
            }
        });
    }

    @EventHandler
    void on(ScheduleFireQueued e) {
        afterCommit(() -> fire(e.namespace(), "queued"));
    }

    @EventHandler
    void on(ScheduleFireSkipped e) {
        String outcome = SkipCause.of(e.reason()) == SkipCause.OVERLAP ? "skipped_overlap" : "skipped_misfire";
        afterCommit(() -> fire(e.namespace(), outcome));
    }

    private void fire(String namespace, String outcome) {
        registry.counter("ax.schedule.fires", "namespace", namespace, "outcome", outcome)
                .increment();
    }

    private void finished(String jobId, String outcome, long durationMs) {
        Job job = job(jobId);
        if (job == null) return;
        afterCommit(() -> {
            registry.counter(
                            "ax.jobs.finished",
                            "namespace",
                            job.namespace(),
                            "job_type",
                            job.jobType(),
                            "outcome",
                            outcome)
                    .increment();
            if (durationMs >= 0) {
                latency("ax.job.duration", "how long a job's run took")
                        .tag("namespace", job.namespace())
                        .tag("job_type", job.jobType())
                        .register(registry)
                        .record(durationMs, TimeUnit.MILLISECONDS);
            }
        });
    }

    /** A histogram of the scheduler's latency buckets; the registry keeps one per name and tags. */
    private static Timer.Builder latency(String name, String description) {
        return Timer.builder(name).description(description).serviceLevelObjectives(LatencyBuckets.edges());
    }

    private void remember(String jobId, Job job) {
        synchronized (known) {
            known.put(jobId, job);
        }
    }

    /** The job's type and due time: from memory, or from job_queue; null (and logged) when neither has it. */
    private Job job(String jobId) {
        synchronized (known) {
            Job job = known.get(jobId);
            if (job != null) return job;
        }
        try {
            List<Job> rows = jdbc.query(
                    "SELECT namespace, job_type, run_at FROM job_queue WHERE job_id = :id",
                    Map.of("id", jobId),
                    (rs, i) -> new Job(rs.getString(1), types.of(rs.getString(2)), rs.getLong(3)));
            if (rows.isEmpty()) return null;
            remember(jobId, rows.get(0));
            return rows.get(0);
        } catch (RuntimeException e) {
            log.debug("no metric for job {}: {}", jobId, e.toString());
            return null;
        }
    }

    private static void afterCommit(Runnable count) {
        AfterCommit.run(count);
    }
}
