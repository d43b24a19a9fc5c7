package io.axscheduler.query.stream;

import io.axscheduler.api.Namespaces;
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
import java.util.Map;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.Timestamp;
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

    private final StreamHub hub;
    // the schedule a recent job was made by, so that ?scheduleId= also follows that job's later events
    private final Map<String, String> scheduleOfJob =
            Collections.synchronizedMap(new LinkedHashMap<>(256, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
                    return size() > SCHEDULE_OF_JOB_ENTRIES;
                }
            });

    public ChangeStream(StreamHub hub) {
        this.hub = hub;
    }

    @EventHandler
    void on(JobCreated e, @Timestamp Instant at) {
        if (e.scheduleId() != null) scheduleOfJob.put(e.jobId(), e.scheduleId());
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
                Namespaces.DEFAULT,
                at));
    }

    private void schedule(String scheduleId, String event, String state, Instant at) {
        hub.publish(new Change("schedule", scheduleId, event, state, scheduleId, Namespaces.DEFAULT, at));
    }
}
