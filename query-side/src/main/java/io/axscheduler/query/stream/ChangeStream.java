package io.axscheduler.query.stream;

import io.axscheduler.api.job.JobCanceled;
import io.axscheduler.api.job.JobClaimed;
import io.axscheduler.api.job.JobCreated;
import io.axscheduler.api.job.JobFailed;
import io.axscheduler.api.job.JobHandedBack;
import io.axscheduler.api.job.JobRetryScheduled;
import io.axscheduler.api.job.JobStarted;
import io.axscheduler.api.job.JobStatus;
import io.axscheduler.api.job.JobSucceeded;
import io.axscheduler.api.job.JobTimedOut;
import io.axscheduler.api.schedule.ScheduleCreated;
import io.axscheduler.api.schedule.ScheduleDeleted;
import io.axscheduler.api.schedule.ScheduleFireSkipped;
import io.axscheduler.api.schedule.ScheduleFired;
import io.axscheduler.api.schedule.SchedulePaused;
import io.axscheduler.api.schedule.ScheduleResumed;
import io.axscheduler.api.schedule.ScheduleUpdated;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.Timestamp;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Hands every job and schedule change to this node's {@link StreamHub}. It runs on a processor of this node alone
 * (tokens in memory, from the head of the store: see {@link StreamProcessorSetup}), so each node sees the changes
 * of all nodes once committed, and a subscriber never hears of a change that rolled back. Never throws: a stream
 * must not hold anything up.
 *
 * <p>Each change names its job's or schedule's namespace, so that a subscriber hears only of those it may see: taken
 * from the creating event when this node's processor saw it (at most {@value #NAMESPACE_ENTRIES} of each are kept),
 * else read from the read model; unknown (null) when neither has it.
 */
@Component
@ProcessingGroup(ChangeStream.PROCESSING_GROUP)
public class ChangeStream {

    public static final String PROCESSING_GROUP = "console-stream";
    private static final int SCHEDULE_OF_JOB_ENTRIES = 10_000;
    static final int NAMESPACE_ENTRIES = 10_000;

    private final StreamHub hub;
    private final NamedParameterJdbcTemplate jdbc;
    private final Map<String, String> namespaceOfJob = bounded(NAMESPACE_ENTRIES);
    private final Map<String, String> namespaceOfSchedule = bounded(NAMESPACE_ENTRIES);
    // the schedule a recent job was made by, so that ?scheduleId= also follows that job's later events
    private final Map<String, String> scheduleOfJob =
            Collections.synchronizedMap(new LinkedHashMap<>(256, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
                    return size() > SCHEDULE_OF_JOB_ENTRIES;
                }
            });

    public ChangeStream(StreamHub hub, NamedParameterJdbcTemplate jdbc) {
        this.hub = hub;
        this.jdbc = jdbc;
    }

    private static Map<String, String> bounded(int entries) {
        return Collections.synchronizedMap(new LinkedHashMap<>(256, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
                return size() > entries;
            }
        });
    }

    @EventHandler
    void on(JobCreated e, @Timestamp Instant at) {
        if (e.scheduleId() != null) scheduleOfJob.put(e.jobId(), e.scheduleId());
        namespaceOfJob.put(e.jobId(), e.namespace());
        job(e.jobId(), e, at);
    }

    @EventHandler
    void on(JobClaimed e, @Timestamp Instant at) {
        job(e.jobId(), e, at);
    }

    @EventHandler
    void on(JobStarted e, @Timestamp Instant at) {
        job(e.jobId(), e, at);
    }

    @EventHandler
    void on(JobSucceeded e, @Timestamp Instant at) {
        job(e.jobId(), e, at);
    }

    @EventHandler
    void on(JobFailed e, @Timestamp Instant at) {
        job(e.jobId(), e, at);
    }

    @EventHandler
    void on(JobTimedOut e, @Timestamp Instant at) {
        job(e.jobId(), e, at);
    }

    @EventHandler
    void on(JobHandedBack e, @Timestamp Instant at) {
        job(e.jobId(), e, at);
    }

    @EventHandler
    void on(JobRetryScheduled e, @Timestamp Instant at) {
        job(e.jobId(), e, at);
    }

    @EventHandler
    void on(JobCanceled e, @Timestamp Instant at) {
        job(e.jobId(), e, at);
    }

    @EventHandler
    void on(ScheduleCreated e, @Timestamp Instant at) {
        namespaceOfSchedule.put(e.scheduleId(), e.namespace());
        schedule(e.scheduleId(), "ScheduleCreated", "ACTIVE", at);
    }

    @EventHandler
    void on(ScheduleUpdated e, @Timestamp Instant at) {
        schedule(e.scheduleId(), "ScheduleUpdated", null, at);
    }

    @EventHandler
    void on(SchedulePaused e, @Timestamp Instant at) {
        schedule(e.scheduleId(), "SchedulePaused", "PAUSED", at);
    }

    @EventHandler
    void on(ScheduleResumed e, @Timestamp Instant at) {
        schedule(e.scheduleId(), "ScheduleResumed", "ACTIVE", at);
    }

    @EventHandler
    void on(ScheduleDeleted e, @Timestamp Instant at) {
        schedule(e.scheduleId(), "ScheduleDeleted", "DELETED", at);
    }

    @EventHandler
    void on(ScheduleFired e, @Timestamp Instant at) {
        publishSchedule(e.scheduleId(), "ScheduleFired", null, e.namespace(), at);
    }

    @EventHandler
    void on(ScheduleFireSkipped e, @Timestamp Instant at) {
        publishSchedule(e.scheduleId(), "ScheduleFireSkipped", null, e.namespace(), at);
    }

    /** A job's change, with the status the job has after it as the job_queue projection records it. */
    private void job(String jobId, Object event, Instant at) {
        hub.publish(new Change(
                "job",
                jobId,
                event.getClass().getSimpleName(),
                JobStatus.after(event).name(),
                scheduleOfJob.get(jobId),
                namespace(namespaceOfJob, "SELECT namespace FROM job_queue WHERE job_id = :id", jobId),
                at));
    }

    private void schedule(String scheduleId, String event, String state, Instant at) {
        String namespace =
                namespace(namespaceOfSchedule, "SELECT namespace FROM schedules WHERE schedule_id = :id", scheduleId);
        publishSchedule(scheduleId, event, state, namespace, at);
    }

    /** A schedule's change whose event names the schedule's namespace (its fires): no lookup. */
    private void publishSchedule(String scheduleId, String event, String state, String namespace, Instant at) {
        hub.publish(new Change("schedule", scheduleId, event, state, scheduleId, namespace, at));
    }

    private String namespace(Map<String, String> known, String sql, String id) {
        String namespace = known.get(id);
        if (namespace != null) return namespace;
        try {
            List<String> rows = jdbc.queryForList(sql, Map.of("id", id), String.class);
            if (rows.isEmpty()) return null;
            known.put(id, rows.get(0));
            return rows.get(0);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
