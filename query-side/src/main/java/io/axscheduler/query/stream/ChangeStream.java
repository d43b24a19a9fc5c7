package io.axscheduler.query.stream;

import io.axscheduler.api.job.JobCanceled;
import io.axscheduler.api.job.JobClaimed;
import io.axscheduler.api.job.JobCreated;
import io.axscheduler.api.job.JobFailed;
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
 */
@Component
@ProcessingGroup(ChangeStream.PROCESSING_GROUP)
public class ChangeStream {

    public static final String PROCESSING_GROUP = "console-stream";
    private static final int SCHEDULE_OF_JOB_ENTRIES = 10_000;
    private static final int NAMESPACE_ENTRIES = 20_000;

    private final StreamHub hub;
    private final NamedParameterJdbcTemplate jdbc;
    // the namespace of recent jobs and schedules, so a subscriber sees only the namespaces it may (ids are unique
    // across both); one older than the node's start or than the map is read once from its row
    private final Map<String, String> namespaceOf = Collections.synchronizedMap(new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > NAMESPACE_ENTRIES;
        }
    });
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

    @EventHandler
    void on(JobCreated e, @Timestamp Instant at) {
        if (e.scheduleId() != null) scheduleOfJob.put(e.jobId(), e.scheduleId());
        namespaceOf.put(e.jobId(), e.namespace());
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
    void on(JobRetryScheduled e, @Timestamp Instant at) {
        job(e.jobId(), e, at);
    }

    @EventHandler
    void on(JobCanceled e, @Timestamp Instant at) {
        job(e.jobId(), e, at);
    }

    @EventHandler
    void on(ScheduleCreated e, @Timestamp Instant at) {
        namespaceOf.put(e.scheduleId(), e.namespace());
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
        schedule(e.scheduleId(), "ScheduleFired", null, at);
    }

    @EventHandler
    void on(ScheduleFireSkipped e, @Timestamp Instant at) {
        schedule(e.scheduleId(), "ScheduleFireSkipped", null, at);
    }

    /** A job's change, with the status the job has after it as the job_queue projection records it. */
    private void job(String jobId, Object event, Instant at) {
        hub.publish(new Change(
                "job",
                jobId,
                event.getClass().getSimpleName(),
                JobStatus.after(event).name(),
                scheduleOfJob.get(jobId),
                namespace("job_queue", "job_id", jobId),
                at));
    }

    private void schedule(String scheduleId, String event, String state, Instant at) {
        hub.publish(new Change(
                "schedule",
                scheduleId,
                event,
                state,
                scheduleId,
                namespace("schedules", "schedule_id", scheduleId),
                at));
    }

    /** The namespace of a job or schedule; null when unknown, which only a subscriber seeing every namespace gets. */
    private String namespace(String table, String key, String id) {
        String known = namespaceOf.get(id);
        if (known != null) return known;
        try {
            List<String> found = jdbc.queryForList(
                    "SELECT namespace FROM " + table + " WHERE " + key + " = :id", Map.of("id", id), String.class);
            if (found.isEmpty()) return null;
            namespaceOf.put(id, found.get(0));
            return found.get(0);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
