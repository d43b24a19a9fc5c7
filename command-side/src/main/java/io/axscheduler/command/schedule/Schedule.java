package io.axscheduler.command.schedule;

import static io.axscheduler.api.schedule.ScheduleState.*;
import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import io.axscheduler.api.problem.IllegalTransitionException;
import io.axscheduler.api.problem.Unchanged;
import io.axscheduler.api.schedule.*;
import io.axscheduler.command.AggregateCaches;
import io.axscheduler.command.Snapshots;
import io.axscheduler.command.schedule.ScheduleTransitions.Action;
import java.time.Instant;
import java.util.Objects;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.spring.stereotype.Aggregate;

/**
 * One recurring schedule. Fires are compare-and-set on the fire time: a scheduled fire must name the fire time the
 * schedule is waiting for, so of two nodes firing the same time only the first append wins (the event store's
 * unique sequence settles a true race). A fire answers with the job template to submit, read from this stream.
 */
// snapshots are Jackson JSON of the fields: no getters, so fields are what it sees
@JsonAutoDetect(
        fieldVisibility = JsonAutoDetect.Visibility.ANY,
        getterVisibility = JsonAutoDetect.Visibility.NONE,
        isGetterVisibility = JsonAutoDetect.Visibility.NONE)
@Aggregate(
        cache = AggregateCaches.SCHEDULES,
        lockFactory = AggregateCaches.SCHEDULE_LOCKS,
        snapshotTriggerDefinition = Snapshots.SCHEDULES)
class Schedule {

    @AggregateIdentifier
    private String scheduleId;

    private ScheduleState state;
    private Trigger trigger;
    private JobTemplate job;
    private Instant nextFireTime;
    /** What fixed-rate times without {@code startAt} count from; null in a snapshot made before it was kept. */
    private Instant anchor;

    private Instant queuedFireTime;
    private String lastJobId;

    Schedule() {}

    @CommandHandler
    Schedule(CreateSchedule c) {
        apply(ScheduleCreated.of(
                c, FireTimes.next(c.trigger(), c.anchor(), c.anchor()).orElse(null)));
    }

    /**
     * Answers the next fire time after the update. An edit that leaves the trigger as it was (a rename, another job
     * template or policy) keeps the fire times where they were — the next one, a fixed rate's phase, a due fire not
     * made yet; a new trigger counts from the update.
     */
    @CommandHandler
    Instant handle(UpdateSchedule c) {
        ScheduleTransitions.check(scheduleId, state, Action.UPDATE, "update");
        boolean sameTimes = c.trigger().equals(trigger) && anchor != null;
        Instant next = sameTimes
                ? nextFireTime
                : FireTimes.next(c.trigger(), c.anchor(), c.anchor()).orElse(null);
        apply(new ScheduleUpdated(
                scheduleId,
                c.name(),
                c.trigger(),
                c.job(),
                c.misfirePolicy(),
                c.overlapPolicy(),
                sameTimes ? anchor : c.anchor(),
                next));
        return next;
    }

    @CommandHandler
    void handle(PauseSchedule c) {
        ScheduleTransitions.check(scheduleId, state, Action.PAUSE, "pause");
        if (state != ACTIVE) throw new Unchanged("schedule " + scheduleId + " is already paused");
        apply(new SchedulePaused(scheduleId));
    }

    @CommandHandler
    void handle(ResumeSchedule c) {
        ScheduleTransitions.check(scheduleId, state, Action.RESUME, "resume");
        if (state != PAUSED) throw new Unchanged("schedule " + scheduleId + " is already active");
        apply(new ScheduleResumed(scheduleId, nextFireTime));
    }

    @CommandHandler
    void handle(DeleteSchedule c) {
        if (state != DELETED) apply(new ScheduleDeleted(scheduleId));
    }

    @CommandHandler
    JobTemplate handle(FireSchedule c) {
        ScheduleTransitions.check(
                scheduleId, state, c.kind() == FireKind.MANUAL ? Action.FIRE_BY_HAND : Action.FIRE_ON_TIME, "fire");
        Instant next = nextFireTime;
        switch (c.kind()) {
            case SCHEDULED -> {
                requireDue(c.fireTime(), nextFireTime, "fire");
                requireLater(c.nextFireTime(), c.fireTime());
                next = c.nextFireTime();
            }
            case QUEUED -> requireDue(c.fireTime(), queuedFireTime, "release the queued fire");
            case MANUAL -> {}
        }
        apply(new ScheduleFired(scheduleId, c.fireTime(), c.kind(), c.jobId(), next, job.namespace()));
        return job;
    }

    @CommandHandler
    void handle(SkipScheduleFire c) {
        requireDue(c.fireTime(), nextFireTime, "skip");
        requireLater(c.nextFireTime(), c.fireTime());
        apply(new ScheduleFireSkipped(scheduleId, c.fireTime(), c.reason(), c.nextFireTime(), job.namespace()));
    }

    @CommandHandler
    void handle(QueueScheduleFire c) {
        requireDue(c.fireTime(), nextFireTime, "queue");
        requireLater(c.nextFireTime(), c.fireTime());
        require(queuedFireTime == null, "queue a second fire");
        apply(new ScheduleFireQueued(scheduleId, c.fireTime(), c.waitingForJobId(), c.nextFireTime(), job.namespace()));
    }

    @CommandHandler
    void handle(ArmSchedule c) {
        ScheduleTransitions.check(scheduleId, state, Action.FIRE_ON_TIME, "arm after job " + c.afterJobId());
        require(
                trigger.type() == TriggerType.FIXED_DELAY
                        && nextFireTime == null
                        && Objects.equals(lastJobId, c.afterJobId()),
                "arm after job " + c.afterJobId());
        apply(new ScheduleArmed(
                scheduleId, c.afterJobId(), c.endedAt(), c.endedAt().plusMillis(trigger.delayMs())));
    }

    private void requireDue(Instant fireTime, Instant expected, String what) {
        ScheduleTransitions.check(scheduleId, state, Action.FIRE_ON_TIME, what);
        if (expected == null || !expected.equals(fireTime)) {
            throw new IllegalTransitionException("schedule " + scheduleId + " cannot " + what + " at " + fireTime
                    + ": the fire time it waits for is " + expected);
        }
    }

    private static void requireLater(Instant next, Instant fireTime) {
        if (next != null && !next.isAfter(fireTime)) {
            throw new IllegalArgumentException("next fire time " + next + " must come after " + fireTime);
        }
    }

    private void require(boolean allowed, String what) {
        if (!allowed) {
            throw new IllegalTransitionException("schedule " + scheduleId + " is " + state + " and cannot " + what);
        }
    }

    @EventSourcingHandler
    void on(ScheduleCreated e) {
        scheduleId = e.scheduleId();
        state = ACTIVE;
        trigger = e.trigger();
        job = e.job();
        nextFireTime = e.nextFireTime();
        anchor = e.anchor();
    }

    @EventSourcingHandler
    void on(ScheduleUpdated e) {
        trigger = e.trigger();
        job = e.job();
        nextFireTime = e.nextFireTime();
        anchor = e.anchor();
    }

    @EventSourcingHandler
    void on(SchedulePaused e) {
        state = PAUSED;
    }

    @EventSourcingHandler
    void on(ScheduleResumed e) {
        state = ACTIVE;
    }

    @EventSourcingHandler
    void on(ScheduleDeleted e) {
        state = DELETED;
    }

    @EventSourcingHandler
    void on(ScheduleFired e) {
        nextFireTime = e.nextFireTime();
        lastJobId = e.jobId();
        if (e.kind() == FireKind.QUEUED) queuedFireTime = null;
    }

    @EventSourcingHandler
    void on(ScheduleFireSkipped e) {
        nextFireTime = e.nextFireTime();
    }

    @EventSourcingHandler
    void on(ScheduleFireQueued e) {
        queuedFireTime = e.fireTime();
        nextFireTime = e.nextFireTime();
    }

    @EventSourcingHandler
    void on(ScheduleArmed e) {
        nextFireTime = e.nextFireTime();
    }
}
