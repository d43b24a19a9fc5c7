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
 * Remote capacity, as the scanner claims by it: for each job type, executor app and namespace, the free slots of
 * available workers, less this node's pushes still on their way (not yet counted in the workers' in-flight). A worker
 * runs only jobs of the namespace it registered in, so a job whose namespace has no worker of its app stays unclaimed.
 * Jobs bound to no app go to any app's workers of their namespace, but only for types no in-process handler runs.
 */
@Component
public class RemoteLanes {

    /**
     * Jobs of {@code jobType} in {@code namespace} bound to {@code executorApp} (null: bound to none) that may be
     * claimed now.
     */
    public record Lane(String jobType, String executorApp, String namespace, int freeSlots) {}

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
                add(lanes, type, worker.app(), worker.namespace(), c.freeSlots());
                if (!runsInProcess.test(type)) add(lanes, type, null, worker.namespace(), c.freeSlots());
            }
        }
        List<Lane> free = new ArrayList<>();
        lanes.forEach((key, lane) -> {
            int room = lane.freeSlots() - pendingOf(key).get();
            if (room > 0) free.add(new Lane(lane.jobType(), lane.executorApp(), lane.namespace(), room));
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

    void pushStarted(String jobType, String executorApp, String namespace) {
        pendingOf(key(jobType, executorApp, namespace)).incrementAndGet();
    }

    void pushEnded(String jobType, String executorApp, String namespace) {
        pendingOf(key(jobType, executorApp, namespace)).decrementAndGet();
    }

    /** A namespace has no '/' (it is [a-z0-9-]), so the key cannot be read two ways. */
    static String key(String jobType, String executorApp, String namespace) {
        return namespace + "/" + jobType + "@" + (executorApp == null ? "*" : executorApp);
    }

    private AtomicInteger pendingOf(String key) {
        return pending.computeIfAbsent(key, k -> new AtomicInteger());
    }

    private static void add(Map<String, Lane> lanes, String type, String app, String namespace, int slots) {
        lanes.merge(
                key(type, app, namespace),
                new Lane(type, app, namespace, slots),
                (a, b) -> new Lane(a.jobType(), a.executorApp(), a.namespace(), a.freeSlots() + b.freeSlots()));
    }
}
