package io.axscheduler.scheduler.remote;

import io.axscheduler.scheduler.remote.route.Candidate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.springframework.stereotype.Component;

/**
 * Remote capacity, as the scanner claims by it: for each job type and executor app, the free slots of available
 * workers, less this node's pushes still on their way (not yet counted in the workers' in-flight). Jobs bound to
 * no app go to any app's workers, but only for types no in-process handler runs.
 */
@Component
public class RemoteLanes {

    /** Jobs of {@code jobType} bound to {@code executorApp} (null: bound to none) that may be claimed now. */
    public record Lane(String jobType, String executorApp, int freeSlots) {}

    /**
     * How long a read of the registry serves the scan: capacity changes at heartbeat pace (seconds), while a busy node
     * scans many times a second; pushes in flight are counted locally in between.
     */
    static final long WORKERS_READ_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    private final WorkerRegistry registry;
    private final Map<String, AtomicInteger> pending = new ConcurrentHashMap<>();
    private List<WorkerRegistry.Registered> workers = List.of();
    private long workersReadAt = System.nanoTime() - WORKERS_READ_EVERY_NANOS;

    public RemoteLanes(WorkerRegistry registry) {
        this.registry = registry;
    }

    public List<Lane> free(Predicate<String> runsInProcess) {
        Map<String, Lane> lanes = new LinkedHashMap<>();
        for (WorkerRegistry.Registered worker : availableWorkers()) {
            Candidate c = worker.candidate();
            for (String type : c.jobTypes()) {
                add(lanes, type, worker.app(), c.freeSlots());
                if (!runsInProcess.test(type)) add(lanes, type, null, c.freeSlots());
            }
        }
        List<Lane> free = new ArrayList<>();
        lanes.forEach((key, lane) -> {
            int room = lane.freeSlots() - pendingOf(key).get();
            if (room > 0) free.add(new Lane(lane.jobType(), lane.executorApp(), room));
        });
        return free;
    }

    private synchronized List<WorkerRegistry.Registered> availableWorkers() {
        if (System.nanoTime() - workersReadAt >= WORKERS_READ_EVERY_NANOS) {
            workers = registry.available();
            workersReadAt = System.nanoTime();
        }
        return workers;
    }

    void pushStarted(String jobType, String executorApp) {
        pendingOf(key(jobType, executorApp)).incrementAndGet();
    }

    void pushEnded(String jobType, String executorApp) {
        pendingOf(key(jobType, executorApp)).decrementAndGet();
    }

    static String key(String jobType, String executorApp) {
        return jobType + "@" + (executorApp == null ? "*" : executorApp);
    }

    private AtomicInteger pendingOf(String key) {
        return pending.computeIfAbsent(key, k -> new AtomicInteger());
    }

    private static void add(Map<String, Lane> lanes, String type, String app, int slots) {
        lanes.merge(
                key(type, app),
                new Lane(type, app, slots),
                (a, b) -> new Lane(a.jobType(), a.executorApp(), a.freeSlots() + b.freeSlots()));
    }
}
