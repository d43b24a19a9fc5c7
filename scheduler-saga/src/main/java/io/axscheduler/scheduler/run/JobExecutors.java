package io.axscheduler.scheduler.run;

import io.axscheduler.api.spi.JobHandler;
import io.axscheduler.scheduler.SchedulerProperties;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.stereotype.Component;

/**
 * One bounded pool per job type, so that a runaway type fills only its own threads. The scanner takes the free
 * slots ({@link #takeFreeSlots}) before it claims, and claims no more than that: claimed work never waits in an
 * unbounded queue, and what another node could run is left for it.
 */
@Component
public class JobExecutors {

    private final Map<String, TypePool> pools = new LinkedHashMap<>();

    public JobExecutors(List<JobHandler> handlers, SchedulerProperties properties) {
        for (JobHandler handler : handlers) {
            String type = handler.jobType();
            // other nodes find this node's types in its reported pools by their JSON text (HoldBack.TAKEN_BY_SOMEONE)
            if (type == null || type.isBlank() || type.chars().anyMatch(c -> c == '"' || c == '\\' || c < 0x20))
                throw new IllegalStateException(handler.getClass().getName() + " names job type '" + type
                        + "': a type must not be blank nor hold quotes, backslashes or control characters");
            int threads = handler.concurrency() > 0
                    ? handler.concurrency()
                    : properties.execution().threadsPerType();
            TypePool previous = pools.put(handler.jobType(), new TypePool(handler, threads));
            if (previous != null) {
                throw new IllegalStateException("two handlers claim job type '" + handler.jobType() + "': "
                        + previous.handler.getClass().getName() + " and "
                        + handler.getClass().getName());
            }
        }
    }

    /** What the handler of an in-process type finds wrong with a job's params; nothing for other types. */
    public Map<String, String> paramProblems(String jobType, Map<String, Object> params) {
        TypePool pool = pools.get(jobType);
        return pool == null ? Map.of() : pool.handler.paramProblems(params);
    }

    /** Whether a handler on this node runs the type (jobs of it bound to no executor app then run here). */
    public boolean runsInProcess(String jobType) {
        return pools.containsKey(jobType);
    }

    /** The types a handler on this node runs. */
    public Set<String> inProcessTypes() {
        return Collections.unmodifiableSet(pools.keySet());
    }

    /**
     * Job type → how many more jobs of it this node takes right now; types without room are left out. A type whose
     * runs are short (see {@link TypePool#prefetch()}) also takes up to a pool's worth to queue behind its threads.
     */
    public Map<String, Integer> freeSlots() {
        Map<String, Integer> free = new LinkedHashMap<>();
        pools.forEach((type, pool) -> {
            int room = pool.threads + pool.prefetch() - pool.inFlight.get();
            if (room > 0) free.put(type, room);
        });
        return free;
    }

    /**
     * Takes every free slot (as {@link #freeSlots()} counts them) of the given types for the caller, which hands each back by running a
     * started job on it ({@link RunInProcess#execute}) or by {@link #releaseSlots}. Taking them at once, not reading
     * them and running later, keeps two takers (a claim pass, a fire that starts its due jobs) from filling one slot
     * twice.
     */
    public Map<String, Integer> takeFreeSlots(Collection<String> jobTypes) {
        Map<String, Integer> taken = new LinkedHashMap<>();
        for (String type : jobTypes) {
            TypePool pool = pools.get(type);
            int room = pool == null ? 0 : pool.take(Integer.MAX_VALUE);
            if (room > 0) taken.put(type, room);
        }
        return taken;
    }

    /** Takes one free slot of the type's pool, as {@link #takeFreeSlots} does; false when it has none (or no pool). */
    public boolean takeSlot(String jobType) {
        TypePool pool = pools.get(jobType);
        return pool != null && pool.take(1) == 1;
    }

    /** Hands back slots taken and not run on, per job type. */
    public void releaseSlots(Map<String, Integer> slots) {
        slots.forEach(this::releaseSlots);
    }

    /** Hands back {@code count} slots of the type taken and not run on. */
    public void releaseSlots(String jobType, int count) {
        if (count > 0) poolOf(jobType).inFlight.addAndGet(-count);
    }

    /** Threads of the type's pool on this node (0 when no handler here runs it). */
    public int threads(String jobType) {
        TypePool pool = pools.get(jobType);
        return pool == null ? 0 : pool.threads;
    }

    /** Runs of the type on this node's threads right now. */
    public int active(String jobType) {
        TypePool pool = pools.get(jobType);
        return pool == null ? 0 : pool.executor.getActiveCount();
    }

    /** Started jobs of the type waiting for a thread of this node's pool. */
    public int queued(String jobType) {
        TypePool pool = pools.get(jobType);
        return pool == null ? 0 : pool.executor.getQueue().size();
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

        /** Runs of a type are short when they average under this; only such a type queues work behind its threads. */
        static final long SHORT_RUN_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
        /** A queued job of a short type waits about this long for a thread, at most; the queue is sized to it. */
        static final long QUEUE_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
        /** ... and at most this many pools' worth wait. */
        static final int MAX_POOLS_QUEUED = 8;

        private static final int RUNS_BEFORE_JUDGING = 32;

        final JobHandler handler;
        final int threads;
        /**
         * Slots taken: from before the claim or fire that starts a job here until its handler returns (its outcome is
         * then queued), or until the slot is handed back unused.
         */
        final AtomicInteger inFlight = new AtomicInteger();

        final ThreadPoolExecutor executor;
        private final AtomicLong runs = new AtomicLong();
        /** Moving average of the handler's run time; written by the pool's threads, read by the scan. */
        private volatile long averageRunNanos;

        TypePool(JobHandler handler, int threads) {
            this.handler = handler;
            this.threads = threads;
            AtomicInteger n = new AtomicInteger();
            // dispatch never exceeds the free slots (threads + prefetch), but a thread counts itself free a moment
            // before it takes the next queued job: the queue holds a pool's worth more so that moment never rejects one
            this.executor = new ThreadPoolExecutor(
                    threads,
                    threads,
                    60,
                    TimeUnit.SECONDS,
                    new ArrayBlockingQueue<>(threads * (MAX_POOLS_QUEUED + 1)),
                    r -> {
                        Thread t = new Thread(r, "ax-job-" + handler.jobType() + "-" + n.incrementAndGet());
                        t.setDaemon(true);
                        return t;
                    });
            executor.allowCoreThreadTimeOut(true);
        }

        /** Takes up to {@code most} free slots at once; returns how many it took. */
        int take(int most) {
            while (true) {
                int taken = inFlight.get();
                int room = Math.min(most, threads + prefetch() - taken);
                if (room <= 0) return 0;
                if (inFlight.compareAndSet(taken, taken + room)) return room;
            }
        }

        void ran(long nanos) {
            long n = runs.incrementAndGet();
            long average = averageRunNanos;
            averageRunNanos = n == 1 ? nanos : average + (nanos - average) / Math.min(n, 64);
        }

        /**
         * How many started jobs may wait for a thread of this pool. When its runs are short, as many as its threads
         * get through in about {@link #QUEUE_WAIT_NANOS} (up to {@link #MAX_POOLS_QUEUED} pools' worth): one claim
         * batch then starts that many more jobs, and fewer batches carry the same work. None otherwise: a job that
         * would wait long for a thread is better left in the database for a node with room, its run deadline not
         * ticking.
         */
        int prefetch() {
            long average = averageRunNanos;
            if (runs.get() < RUNS_BEFORE_JUDGING || average >= SHORT_RUN_NANOS) return 0;
            return (int) Math.min((long) threads * MAX_POOLS_QUEUED, threads * QUEUE_WAIT_NANOS / Math.max(average, 1));
        }
    }
}
