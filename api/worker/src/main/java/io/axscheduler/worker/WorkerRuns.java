package io.axscheduler.worker;

import io.axscheduler.api.TextLimit;
import io.axscheduler.api.spi.JobHandler;
import io.axscheduler.api.worker.JobCallback;
import io.axscheduler.api.worker.PushAnswer;
import io.axscheduler.api.worker.PushState;
import io.axscheduler.api.worker.PushedJob;
import io.axscheduler.api.worker.StopRun;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes pushed jobs and runs them on a bounded pool — never on the HTTP thread, which answers at once. Every push is
 * remembered by job, attempt and shard (the last {@code rememberedRuns} of them): a push repeated after a lost answer
 * is answered with what this worker knows (RUNNING, or DONE with the outcome, which is called back again) and never
 * run twice. A run that outlives the job's timeout is told to stop.
 */
public class WorkerRuns {

    private static final Logger log = LoggerFactory.getLogger(WorkerRuns.class);

    private final Map<String, JobHandler> handlers = new LinkedHashMap<>();
    private final Map<String, PushedRun> runs;
    private final ThreadPoolExecutor pool;
    private final ScheduledExecutorService timeouts;
    private final AxWorkerProperties properties;
    private final Reporter reporter;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final int capacity;
    private volatile boolean stopping;

    /** Delivers an outcome to the scheduler (signed, retried); the runtime knows the worker id and secret. */
    public interface Reporter {
        /** Tells the outcome now, on the caller's thread, and goes on trying in the background if no node took it. */
        void report(JobCallback outcome);

        /** Tells the outcome from the background at once: for a caller that must not wait (a push's answer). */
        default void reportSoon(JobCallback outcome) {
            report(outcome);
        }

        /** The worker id callbacks are sent as right now (null before registration). */
        String workerId();
    }

    public WorkerRuns(List<JobHandler> handlers, AxWorkerProperties properties, Reporter reporter) {
        for (JobHandler handler : handlers) {
            if (handlers.stream()
                            .filter(h -> h.jobType().equals(handler.jobType()))
                            .count()
                    > 1) {
                throw new IllegalStateException("two handlers claim job type '" + handler.jobType() + "'");
            }
            this.handlers.put(handler.jobType(), handler);
        }
        this.properties = properties;
        this.reporter = reporter;
        int remembered = properties.rememberedRuns();
        this.runs = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, PushedRun> eldest) {
                return size() > remembered && eldest.getValue().outcome() != null;
            }
        };
        AtomicInteger n = new AtomicInteger();
        // capacity is gated by inFlight, not by the pool: a push beyond it is answered BUSY at once and the
        // scheduler tries another worker. The small queue only absorbs the moment between a run's report and its
        // thread becoming free again, which with a hand-off queue answered BUSY to a push that had room.
        this.capacity = properties.capacity();
        this.pool = new ThreadPoolExecutor(
                capacity,
                capacity,
                60,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(capacity),
                r -> daemon(r, "ax-worker-run-" + n.incrementAndGet()));
        pool.allowCoreThreadTimeOut(true);
        this.timeouts = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "ax-worker-timeouts"));
    }

    public List<String> jobTypes() {
        return List.copyOf(handlers.keySet());
    }

    public int inFlight() {
        return inFlight.get();
    }

    public PushAnswer accept(PushedJob job) {
        JobHandler handler = handlers.get(job.jobType());
        PushedRun run;
        JobCallback done;
        synchronized (runs) {
            PushedRun known = runs.get(job.runKey());
            if (known == null) {
                // a stopping worker takes nothing new; a push it has taken is answered below as ever, since the
                // scheduler asking again after a lost answer would otherwise give the job to another worker
                if (stopping) return new PushAnswer(PushState.BUSY, null);
                // the slot is taken before the run is remembered: a repeated push never hears RUNNING of a run that
                // was then refused for want of room
                if (inFlight.incrementAndGet() > capacity) {
                    inFlight.decrementAndGet();
                    return new PushAnswer(PushState.BUSY, null);
                }
                run = new PushedRun(job);
                runs.put(job.runKey(), run);
                done = null;
            } else {
                done = known.outcome();
                if (done == null) return new PushAnswer(PushState.RUNNING, null);
                run = null;
            }
        }
        if (done != null) {
            // outside the lock and off this thread: the push's answer waits for no call to the scheduler
            reporter.reportSoon(done);
            return new PushAnswer(PushState.DONE, done);
        }
        try {
            pool.execute(() -> run(run, handler));
        } catch (RejectedExecutionException shutDown) {
            synchronized (runs) {
                runs.remove(job.runKey());
            }
            inFlight.decrementAndGet();
            return new PushAnswer(PushState.BUSY, null);
        }
        return new PushAnswer(PushState.ACCEPTED, null);
    }

    private void run(PushedRun run, JobHandler handler) {
        PushedJob job = run.job();
        // started before the timer is set: a run the timer stopped reports at least its timeout, which the scheduler
        // records as a timeout rather than a failure
        long started = System.nanoTime();
        var timeout = timeouts.schedule(
                () -> run.stop("as its timeout of " + job.timeoutMs() + " ms ran out"),
                Math.max(1, job.timeoutMs()),
                TimeUnit.MILLISECONDS);
        String result = null;
        String error = null;
        try {
            if (handler == null)
                throw new IllegalStateException("no handler for job type '" + job.jobType() + "' on this worker");
            result = handler.execute(run);
        } catch (Throwable t) {
            error = t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
            if (run.isCancelled()) {
                // told to stop, and stopped: what it was told is logged already, the way it stopped needs no trace
                log.info("job {} ({}) attempt {} stopped: {}", job.jobId(), job.jobType(), job.attempt(), error);
            } else {
                // the scheduler keeps the one line; the trace, with its causes, is only here
                log.warn("job {} ({}) attempt {} failed on this worker", job.jobId(), job.jobType(), job.attempt(), t);
            }
        } finally {
            timeout.cancel(false);
            Thread.interrupted();
        }
        long durationMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        JobCallback outcome = new JobCallback(
                reporter.workerId(),
                job.jobId(),
                job.attempt(),
                job.shardIndex(),
                error == null,
                TextLimit.truncate(result),
                TextLimit.truncate(error),
                durationMs);
        run.ended(outcome);
        try {
            if (stopping && run.isCancelled()) {
                // the scheduler timed this attempt out when the worker deregistered; it runs elsewhere now
                log.info("job {} attempt {} stopped with the worker; not reported", job.jobId(), job.attempt());
                return;
            }
            // the run counts as in flight until its outcome's first try is over (or handed to the retries): a stopping
            // worker waits for it before it deregisters, which would time the attempt out and run it again
            reporter.report(outcome);
        } finally {
            inFlight.decrementAndGet();
        }
    }

    /**
     * The scheduler's word that a run here no longer counts (the job was canceled, the attempt ended or a later one
     * runs): its handler is told to stop, once. A run this worker does not know or that already ended is left as it
     * is: the scheduler names a run until its outcome is called back, so this may come more than once. True when a
     * running run was told.
     */
    public boolean stopRun(StopRun stop) {
        PushedRun run;
        synchronized (runs) {
            run = runs.get(stop.runKey());
        }
        return run != null && run.stop("by the scheduler: " + stop.reason());
    }

    /** Stops taking pushes, waits up to the grace period for running jobs, then asks the rest to stop. */
    public void stop(long graceMs) {
        stopping = true;
        Drain.untilZero(inFlight, System.currentTimeMillis() + graceMs);
    }

    /** Cancels what still runs and lets the threads go. */
    public void cancelAll() {
        cancelRunning("this worker is shutting down");
        pool.shutdownNow();
        timeouts.shutdownNow();
    }

    /** Tells every run still running to stop, each logged with {@code why}; returns how many. */
    public int cancelRunning(String why) {
        Collection<PushedRun> all;
        synchronized (runs) {
            all = List.copyOf(runs.values());
        }
        int told = 0;
        for (PushedRun run : all) {
            if (run.stop("as " + why)) told++;
        }
        return told;
    }

    /** Takes no more pushes from now on: a worker the scheduler took out. */
    public void refuseNewRuns() {
        stopping = true;
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
