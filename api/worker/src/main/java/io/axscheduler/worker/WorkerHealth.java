package io.axscheduler.worker;

import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;

/**
 * {@code axWorker} in the service's {@code /actuator/health}: UP while the worker is registered and heard, with its
 * id and runs; otherwise UNKNOWN with the reason (registering, refused, taken out, heartbeat failing). UNKNOWN, not
 * DOWN: a scheduler that cannot be reached says nothing about the service, and must not fail its probes (and restart
 * it) for that. Alert on the reason, or on the scheduler's {@code ax_workers{state="live"}}.
 */
final class WorkerHealth implements HealthIndicator {

    private final WorkerRuntime runtime;
    private final WorkerRuns runs;
    private final AxWorkerProperties properties;

    WorkerHealth(WorkerRuntime runtime, WorkerRuns runs, AxWorkerProperties properties) {
        this.runtime = runtime;
        this.runs = runs;
        this.properties = properties;
    }

    @Override
    public Health health() {
        String workerId = runtime.workerId();
        String problem = runtime.problem();
        Health.Builder health = problem == null && workerId != null ? Health.up() : Health.status(Status.UNKNOWN);
        health.withDetail("scheduler", properties.schedulerUrl())
                .withDetail("app", runtime.app())
                .withDetail("inFlight", runs.inFlight())
                .withDetail("capacity", properties.capacity());
        if (workerId != null) health.withDetail("workerId", workerId);
        if (problem != null) health.withDetail("problem", problem);
        if (runtime.removed()) health.withDetail("takenOut", true);
        return health.build();
    }
}
