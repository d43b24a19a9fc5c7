package io.axscheduler.testing;

import io.axscheduler.api.Namespaces;
import io.axscheduler.api.job.RetryPolicy;
import io.axscheduler.api.schedule.CreateSchedule;
import io.axscheduler.api.schedule.FireKind;
import io.axscheduler.api.schedule.FireTimes;
import io.axscheduler.api.schedule.JobTemplate;
import io.axscheduler.api.schedule.MisfirePolicy;
import io.axscheduler.api.schedule.OverlapPolicy;
import io.axscheduler.api.schedule.ScheduleCreated;
import io.axscheduler.api.schedule.ScheduleFired;
import io.axscheduler.api.schedule.SchedulePaused;
import io.axscheduler.api.schedule.Trigger;
import java.time.Instant;
import java.util.Map;

/**
 * A schedule for tests, with known values a test changes only where it cares, and the events of its life:
 * {@code aSchedule().withTrigger(Trigger.fixedRate(1000)).created()}.
 */
public final class ASchedule {

    private String scheduleId = "schedule-1";
    private String name = "close-orders";
    private Trigger trigger = Trigger.fixedRate(60_000);
    private JobTemplate job =
            new JobTemplate("noop", Map.of("orderNo", "42"), 0, RetryPolicy.defaults(), 30_000, null, null);
    private MisfirePolicy misfirePolicy = MisfirePolicy.FIRE_ONCE;
    private OverlapPolicy overlapPolicy = OverlapPolicy.ALLOW;
    private Instant anchor = AJob.CREATED_AT;
    private String namespace = Namespaces.DEFAULT;

    private ASchedule() {}

    public static ASchedule aSchedule() {
        return new ASchedule();
    }

    public ASchedule withId(String scheduleId) {
        this.scheduleId = scheduleId;
        return this;
    }

    public ASchedule withName(String name) {
        this.name = name;
        return this;
    }

    public ASchedule withTrigger(Trigger trigger) {
        this.trigger = trigger;
        return this;
    }

    public ASchedule withJob(JobTemplate job) {
        this.job = job;
        return this;
    }

    public ASchedule withMisfirePolicy(MisfirePolicy misfirePolicy) {
        this.misfirePolicy = misfirePolicy;
        return this;
    }

    public ASchedule withOverlapPolicy(OverlapPolicy overlapPolicy) {
        this.overlapPolicy = overlapPolicy;
        return this;
    }

    public ASchedule withAnchor(Instant anchor) {
        this.anchor = anchor;
        return this;
    }

    public ASchedule withNamespace(String namespace) {
        this.namespace = namespace;
        return this;
    }

    public String id() {
        return scheduleId;
    }

    /** The first fire time after the anchor, as the aggregate works it out. */
    public Instant firstFireTime() {
        return FireTimes.next(trigger, anchor, anchor).orElse(null);
    }

    public CreateSchedule create() {
        return new CreateSchedule(scheduleId, name, trigger, job, misfirePolicy, overlapPolicy, anchor, namespace);
    }

    public ScheduleCreated created() {
        return ScheduleCreated.of(create(), firstFireTime());
    }

    /** Its scheduled fire at {@code fireTime}, which made job {@code jobId}, the next one at {@code next}. */
    public ScheduleFired fired(Instant fireTime, String jobId, Instant next) {
        return new ScheduleFired(scheduleId, fireTime, FireKind.SCHEDULED, jobId, next, namespace);
    }

    public SchedulePaused paused() {
        return new SchedulePaused(scheduleId);
    }
}
