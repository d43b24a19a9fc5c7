package io.axscheduler.scheduler.remote;

import io.axscheduler.api.job.TimeOutJob;
import io.axscheduler.api.job.TimeoutPhase;
import java.time.Duration;
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
    private final Duration every;

    public RemoveWorkers(
            WorkerRegistry registry,
            WorkerDispatches dispatches,
            WorkerCommands commands,
            WorkerProperties properties) {
        this.registry = registry;
        this.dispatches = dispatches;
        this.commands = commands;
        this.every = Duration.ofMillis(properties.expiryCheckMs());
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar tasks) {
        tasks.addFixedDelayTask(new FixedDelayTask(this::removeSilent, every, every));
    }

    public void deregister(String workerId) {
        registry.deregister(workerId);
        timeOutAttemptsOf(List.of(workerId));
    }

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
