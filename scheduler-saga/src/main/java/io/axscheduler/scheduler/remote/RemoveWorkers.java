package io.axscheduler.scheduler.remote;

import io.axscheduler.api.job.TimeOutJob;
import io.axscheduler.api.job.TimeoutPhase;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * A worker that deregisters, or misses its heartbeats for too long (database time), is removed, and every attempt
 * it was running times out at once — the retry policy then runs it elsewhere, without waiting for the job's own
 * run deadline.
 */
@Component
public class RemoveWorkers {

    private static final Logger log = LoggerFactory.getLogger(RemoveWorkers.class);

    private final WorkerRegistry registry;
    private final WorkerDispatches dispatches;
    private final WorkerCommands commands;

    public RemoveWorkers(WorkerRegistry registry, WorkerDispatches dispatches, WorkerCommands commands) {
        this.registry = registry;
        this.dispatches = dispatches;
        this.commands = commands;
    }

    public void deregister(String workerId) {
        registry.deregister(workerId);
        timeOutAttemptsOf(List.of(workerId));
    }

    @Scheduled(
            fixedDelayString = "${ax.scheduler.workers.expiry-check-ms:2000}",
            initialDelayString = "${ax.scheduler.workers.expiry-check-ms:2000}")
    public void removeSilent() {
        try {
            List<String> silent = registry.removeSilent();
            if (silent.isEmpty()) return;
            log.warn("removed workers {}: no heartbeat for too long", silent);
            timeOutAttemptsOf(silent);
        } catch (RuntimeException e) {
            log.warn("removing silent workers failed; retried at the next tick: {}", e.toString());
        }
    }

    private void timeOutAttemptsOf(List<String> workerIds) {
        for (WorkerDispatches.Attempt attempt : dispatches.lostWith(workerIds)) {
            commands.sendIgnoringRefusal(
                    new TimeOutJob(attempt.jobId(), attempt.attempt(), TimeoutPhase.RUN), String.join(",", workerIds));
        }
    }
}
