package io.axscheduler.scheduler.remote;

import io.axscheduler.api.job.TimeOutJob;
import io.axscheduler.api.job.TimeoutPhase;
import io.axscheduler.api.problem.NotFoundException;
import io.axscheduler.api.schedule.FireTimes;
import io.axscheduler.api.security.Caller;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

/**
 * A worker that deregisters, or misses its heartbeats for too long (database time), is removed, and every attempt
 * it was running times out at once — the retry policy then runs it elsewhere, without waiting for the job's own
 * run deadline.
 */
@Component
public class RemoveWorkers implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(RemoveWorkers.class);

    private final WorkerRegistry registry;
    private final WorkerDispatches dispatches;
    private final WorkerCommands commands;
    private final StopRemoteRuns stops;
    private final Duration every;
    private final Clock clock;
    private final long silenceMs;
    /**
     * Since when this node has reached the database without a break (its clock), or -1 after a failure: a worker's
     * silence counts only once the node has itself been able to hear heartbeats that long.
     */
    private volatile long reachableSinceMs;

    public RemoveWorkers(
            WorkerRegistry registry,
            WorkerDispatches dispatches,
            WorkerCommands commands,
            StopRemoteRuns stops,
            WorkerProperties properties,
            Clock clock) {
        this.stops = stops;
        this.registry = registry;
        this.dispatches = dispatches;
        this.commands = commands;
        this.every = Duration.ofMillis(properties.expiryCheckMs());
        this.clock = clock;
        this.silenceMs = properties.silenceMs();
        this.reachableSinceMs = clock.millis();
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar tasks) {
        tasks.addFixedDelayTask(new FixedDelayTask(this::removeSilent, every, every));
    }

    /**
     * Removes the worker at {@code by}'s request: the worker itself leaving ({@code byItself}), or an admin taking it
     * out. Its running attempts time out in {@code by}'s name, their reason saying which.
     */
    public void deregister(String workerId, Caller by, boolean byItself) {
        if (byItself) {
            registry.deregister(workerId);
            timeOutAttemptsOf(workerId, "its worker " + workerId + " deregistered while running it", by);
        } else {
            // its runs are told to stop before they are given up (and retried elsewhere), to keep the two apart
            List<WorkerDispatches.Pushed> running = dispatches.pushedTo(workerId);
            // remembered, so the worker is told it was taken out rather than asked to register again
            registry.remove(workerId, by.actor(), "removed by " + by.actor());
            log.warn("worker {} taken out by {}; {} running attempts given up", workerId, by.actor(), running.size());
            stops.stopTakenOut(running, "worker " + workerId + " was taken out by " + by.actor());
            timeOutAttemptsOf(
                    workerId, "its worker " + workerId + " was removed by " + by.actor() + " while running it", by);
        }
    }

    /**
     * A worker registered where earlier registrations of its app are (its service restarted before they went silent):
     * those are gone with the process that held them, so they are removed now and their runs given up at once, rather
     * than after their silence; pushes to them would only be refused by the new process.
     */
    public void replacedBy(String workerId, String app, String address, String namespace, Caller by) {
        for (String earlier : registry.othersAt(app, address, namespace, workerId)) {
            try {
                registry.deregister(earlier);
            } catch (NotFoundException goneMeanwhile) {
                continue;
            }
            log.warn("worker {} replaced by {}, registered at its address {}", earlier, workerId, address);
            timeOutAttemptsOf(
                    earlier,
                    "its worker " + earlier + " was replaced by " + workerId + ", registered at its address (its"
                            + " service restarted)",
                    by);
        }
    }

    /**
     * Removes the workers {@code keyActor} registered, as its key was revoked by {@code by}: their running attempts
     * time out in {@code by}'s name, and their heartbeats — refused with the key anyway — would otherwise only be
     * missed. Returns the workers removed.
     */
    public List<String> keyRevoked(String keyActor, Caller by) {
        return keyEnded(keyActor, by, "its API key " + keyActor + " was revoked by " + by.actor());
    }

    /**
     * Removes the workers {@code keyActor} registered, the key no longer valid ({@code why}: revoked, expired), in
     * {@code by}'s name; returns the workers removed (none that another node removed meanwhile).
     */
    public List<String> keyEnded(String keyActor, Caller by, String why) {
        List<String> removed = new ArrayList<>();
        for (String workerId : registry.registeredBy(keyActor)) {
            List<WorkerDispatches.Pushed> running = dispatches.pushedTo(workerId);
            try {
                registry.remove(workerId, by.actor(), why);
            } catch (NotFoundException goneMeanwhile) {
                continue;
            }
            removed.add(workerId);
            stops.stopTakenOut(running, "worker " + workerId + " was taken out: " + why);
            timeOutAttemptsOf(workerId, "its worker " + workerId + " was removed while running it: " + why, by);
        }
        if (!removed.isEmpty()) log.warn("removed workers {}: {}", removed, why);
        return removed;
    }

    /**
     * Removes the workers silent for too long. Not in the first silence period after this node started or the
     * database came back: heartbeats could not be stored meanwhile (a database outage, every node down), so every
     * worker looks silent then; removed at once, their finished runs' outcomes — waiting in the workers for a node —
     * would find no worker to count for, and the runs would be timed out and run again.
     */
    public void removeSilent() {
        try {
            long now = clock.millis();
            if (reachableSinceMs < 0) {
                if (!registry.databaseAnswers()) return;
                reachableSinceMs = now;
                log.info("the database answers again: silent workers are removed after {} ms more", silenceMs);
                return;
            }
            if (now - reachableSinceMs < silenceMs) return;
            List<String> silent = registry.removeSilent();
            if (silent.isEmpty()) return;
            log.warn("removed workers {}: no heartbeat for too long", silent);
            for (String workerId : silent) {
                timeOutAttemptsOf(
                        workerId,
                        "its worker " + workerId + " sent no heartbeat for " + FireTimes.humanDuration(silenceMs)
                                + " and was removed",
                        Caller.SCHEDULER);
            }
        } catch (RuntimeException e) {
            reachableSinceMs = -1;
            log.warn("removing silent workers failed; retried at the next tick: {}", e.toString());
        }
    }

    /** Times out every attempt pushed to {@code workerId} and not ended, saying why ({@code reason}). */
    private void timeOutAttemptsOf(String workerId, String reason, Caller by) {
        for (WorkerDispatches.Attempt attempt : dispatches.lostWith(List.of(workerId))) {
            commands.sendIgnoringRefusal(
                    new TimeOutJob(attempt.jobId(), attempt.attempt(), TimeoutPhase.RUN, reason), workerId, by);
            // a broadcast's other shards ran for the attempt that just timed out: they stop before its retry runs
            // them all again (nothing to tell for a job of one shard, whose row is no longer PUSHED)
            stops.stopRunsOf(
                    attempt.jobId(),
                    "attempt " + attempt.attempt() + " timed out: " + reason.replaceFirst("^its ", ""));
        }
    }
}
