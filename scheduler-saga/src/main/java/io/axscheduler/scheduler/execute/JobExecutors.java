package io.axscheduler.scheduler.execute;

import io.axscheduler.api.spi.JobHandler;
import io.axscheduler.api.spi.JobTypeCatalog;
import io.axscheduler.scheduler.SchedulerProperties;
import io.axscheduler.scheduler.worker.WorkerRegistry;
import org.springframework.stereotype.Component;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One bounded pool per job type, so that a runaway type fills only its own threads. The scanner asks
 * {@link #freeSlots()} before it claims, and claims no more than that: claimed work never waits in an unbounded
 * queue, and what another node could run is left for it. As the job type catalog it also knows the types only
 * remote workers registered.
 */
@Component
public class JobExecutors implements JobTypeCatalog {

    private final Map<String, TypePool> pools = new LinkedHashMap<>();
    private final WorkerRegistry workers;

    public JobExecutors(List<JobHandler> handlers, SchedulerProperties properties, WorkerRegistry workers) {
        this.workers = workers;
        for (JobHandler handler : handlers) {
            int threads = handler.concurrency() > 0 ? handler.concurrency() : properties.execution().threadsPerType();
            TypePool previous = pools.put(handler.jobType(), new TypePool(handler, threads));
            if (previous != null) {
                throw new IllegalStateException("two handlers claim job type '" + handler.jobType() + "': "
                        + previous.handler.getClass().getName() + " and " + handler.getClass().getName());
            }
        }
    }

    @Override
    public boolean knows(String jobType) {
        return pools.containsKey(jobType) || workers.runsJobType(jobType);
    }

    @Override
    public Set<String> jobTypes() {
        Set<String> types = new TreeSet<>(pools.keySet());
        types.addAll(workers.jobTypes());
        return types;
    }

    /** Whether a handler on this node runs the type (jobs of it bound to no executor app then run here). */
    public boolean runsInProcess(String jobType) {
        return pools.containsKey(jobType);
    }

    public int inProcessTypeCount() {
        return pools.size();
    }

    /** Job type → how many more jobs of it this node can start right now; types without room are left out. */
    public Map<String, Integer> freeSlots() {
        Map<String, Integer> free = new LinkedHashMap<>();
        pools.forEach((type, pool) -> {
            int room = pool.threads - pool.inFlight.get();
            if (room > 0) free.put(type, room);
        });
        return free;
    }

    TypePool poolOf(String jobType) {
        TypePool pool = pools.get(jobType);
        if (pool == null) throw new IllegalStateException("no handler for job type '" + jobType + "' on this node");
        return pool;
    }

    Collection<TypePool> pools() {
        return pools.values();
    }

    public int inFlight() {
        return pools.values().stream().mapToInt(p -> p.inFlight.get()).sum();
    }

    static final class TypePool {
        final JobHandler handler;
        final int threads;
        /** Dispatched and not yet returned: counts from the start batch until the handler returns (its outcome is then queued). */
        final AtomicInteger inFlight = new AtomicInteger();
        final ThreadPoolExecutor executor;

        TypePool(JobHandler handler, int threads) {
            this.handler = handler;
            this.threads = threads;
            AtomicInteger n = new AtomicInteger();
            // the queue can hold a pool's worth: dispatch never exceeds free slots, so it is only a safety margin
            this.executor = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS,
                    new ArrayBlockingQueue<>(threads),
                    r -> {
                        Thread t = new Thread(r, "ax-job-" + handler.jobType() + "-" + n.incrementAndGet());
                        t.setDaemon(true);
                        return t;
                    });
            executor.allowCoreThreadTimeOut(true);
        }
    }
}
