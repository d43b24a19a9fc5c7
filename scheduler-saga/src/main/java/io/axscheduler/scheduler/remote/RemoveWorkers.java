package io.axscheduler.scheduler.remote;

import io.axscheduler.api.job.TimeOutJob;
import io.axscheduler.api.job.TimeoutPhase;
import io.axscheduler.api.problem.NotFoundException;
import io.axscheduler.api.schedule.FireTimes;
import io.axscheduler.api.security.Caller;
import io.axscheduler.api.worker.RegisterWorker;
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
            timeOutAttemptsOf(workerId, "worker " + workerId + " deregistered while running it", by);
        } else {
            takeOut(
                    workerId,
                    by,
                    "removed by " + by.actor(),
                    "was taken out by " + by.actor(),
                    "was removed by " + by.actor() + " while running it");
            log.warn("worker {} taken out by {}", workerId, by.actor());
        }
    }

    /**
     * Takes a worker out ({@code why} remembered for its heartbeats' 410): its runs are told to stop (the worker
     * {@code wasTaken}) before they are given up (and retried elsewhere), to keep the two apart, then timed out as the
     * worker {@code ranAs}. False when another node removed it meanwhile.
     */
    private boolean takeOut(String workerId, Caller by, String why, String wasTaken, String ranAs) {
        // read before the removal, which deletes the worker's address and secret
        List<WorkerDispatches.Pushed> running = dispatches.pushedTo(workerId);
        try {
            registry.remove(workerId, by, why);
        } catch (NotFoundException goneMeanwhile) {
            return false;
        }
        stops.stopTakenOut(running, "worker " + workerId + " " + wasTaken);
        timeOutAttemptsOf(workerId, "worker " + workerId + " " + ranAs, by);
        return true;
    }

    /**
     * A worker registered where earlier registrations of its app are (its service restarted before they went silent):
     * those are gone with the process that held them, so they are removed now and their runs given up at once, rather
     * than after their silence; pushes to them would only be refused by the new process. When both registrations name
     * their process ({@link RegisterWorker#INSTANCE_HEADER}) and the processes differ, and the same principal (or an
     * admin) made the new one, the removal is remembered as a taking out: an earlier registration that still
     * heartbeats is a second process at the same address (behind one load balancer, or configured alike), which would
     * otherwise register again and replace this one, each time timing out the other's runs; told 410 why, it stops.
     * The same process registering again (a retry whose first answer was lost) is only deregistered, as before.
     */
    public void replacedBy(String workerId, RegisterWorker request, String instance, Caller by) {
        String address = request.address();
        for (WorkerRegistry.Earlier earlier :
                registry.earlierAt(request.app(), address, request.namespace(), workerId)) {
            boolean anotherProcess =
                    instance != null && earlier.instance() != null && !instance.equals(earlier.instance());
            // kept out only by its own key or an admin: another key may replace a silent worker, not bar its return
            boolean keptOut = anotherProcess && (by.admin() || by.actor().equals(earlier.registeredBy()));
            try {
                if (keptOut) {
                    registry.remove(
                            earlier.workerId(),
                            by,
                            "replaced by worker " + workerId + " of another process, registered at its address "
                                    + address + ": two worker processes share that address; give each an address of"
                                    + " its own (ax.worker.address)");
                } else {
                    registry.deregister(earlier.workerId());
                }
            } catch (NotFoundException goneMeanwhile) {
                continue;
            }
            log.warn(
                    "worker {} replaced by {}, registered at its address {}{}",
                    earlier.workerId(),
                    workerId,
                    address,
                    anotherProcess ? " by another process: two processes share the address" : "");
            timeOutAttemptsOf(
                    earlier.workerId(),
                    "worker " + earlier.workerId() + " was replaced by " + workerId + ", registered at its address"
                            + " (its service restarted)",
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
            if (takeOut(workerId, by, why, "was taken out: " + why, "was removed while running it: " + why))
                removed.add(workerId);
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
            registry.forgetOldTypes();
            if (silent.isEmpty()) return;
            log.warn("removed workers {}: no heartbeat for too long", silent);
            for (String workerId : silent) {
                timeOutAttemptsOf(
                        workerId,
                        "worker " + workerId + " sent no heartbeat for " + FireTimes.humanDuration(silenceMs)
                                + " and was removed",
                        Caller.SCHEDULER);
            }
        } catch (RuntimeException e) {
            reachableSinceMs = -1;
            log.warn("removing silent workers failed; retried at the next tick: {}", e.toString());
        }
    }

    /**
     * Times out every attempt pushed to {@code workerId} and not ended, as its {@code worker} did ("its worker w-1
     * deregistered while running it"); a broadcast's other shards, which ran for those attempts, are told to stop
     * before the retries run them all again (a job of one shard has no other row left to tell).
     */
    private void timeOutAttemptsOf(String workerId, String worker, Caller by) {
        List<WorkerDispatches.Attempt> lost = dispatches.lostWith(List.of(workerId));
        for (WorkerDispatches.Attempt attempt : lost) {
            commands.sendIgnoringRefusal(
                    new TimeOutJob(attempt.jobId(), attempt.attempt(), TimeoutPhase.RUN, "its " + worker),
                    workerId,
                    by);
        }
        stops.stopRunsOf(
                lost.stream().map(WorkerDispatches.Attempt::jobId).toList(),
                run -> "attempt " + run.attempt() + " timed out: " + worker);
    }
}
