package io.axscheduler.scheduler.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.job.FailJob;
import io.axscheduler.api.job.SucceedJob;
import io.axscheduler.scheduler.ClaimedJob;
import io.axscheduler.scheduler.NodeProperties;
import java.time.Clock;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Runs the attempts a claim batch started on this node: each on its type's pool, its handler called no earlier than
 * the job's due time, its outcome handed to {@link ReportOutcomes}, which writes outcomes in batches.
 */
@Component
public class RunInProcess {

    /** The worker name of attempts run on a node's own pools. */
    public static final String WORKER = "in-process";

    private static final Logger log = LoggerFactory.getLogger(RunInProcess.class);

    private final JobExecutors executors;
    private final ReportOutcomes outcomes;
    private final ObjectMapper json;
    private final String node;
    /** Keyed by job id and attempt: a timed-out attempt may still be winding down when the retry starts here. */
    private final Map<String, RunningAttempt> running = new ConcurrentHashMap<>();

    private volatile boolean stopping;
    private volatile Consumer<String> onSlotFreed = jobType -> {};

    private final Clock clock;

    public RunInProcess(
            JobExecutors executors, ReportOutcomes outcomes, ObjectMapper json, Clock clock, NodeProperties node) {
        this.clock = clock;
        this.executors = executors;
        this.outcomes = outcomes;
        this.json = json;
        this.node = node.id();
    }

    /**
     * Called with the job type whenever a run ends and its slot is free again (the scanner uses it to drain a backlog
     * at once).
     */
    public void onSlotFreed(Consumer<String> listener) {
        this.onSlotFreed = listener;
    }

    /**
     * Hands a started attempt to its type's pool, on a slot taken for it ({@link JobExecutors#takeFreeSlots}); one
     * the pool has no room for fails at once (and is retried).
     */
    public void execute(ClaimedJob job) {
        JobExecutors.TypePool pool = executors.poolOf(job.jobType());
        try {
            pool.executor.execute(new Run(pool, job));
        } catch (RejectedExecutionException e) {
            pool.inFlight.decrementAndGet();
            reportQuietly(new FailJob(job.jobId(), job.attempt(), node + " had no thread for the attempt", 0));
        }
    }

    Collection<RunningAttempt> running() {
        return running.values();
    }

    private static String key(ClaimedJob job) {
        return job.jobId() + "#" + job.attempt();
    }

    /** Runs a started attempt and hands its outcome to the writer; the slot is free as soon as the handler returns. */
    private void run(JobExecutors.TypePool pool, ClaimedJob job) {
        try {
            // claimed ahead of its time (ax.scheduler.scan.claim-ahead-ms): the handler runs no earlier than that
            long early = job.dueLocalMs() - clock.millis();
            if (early > 0) Thread.sleep(early);
            RunningAttempt attempt = new RunningAttempt(job, job.params(json));
            attempt.runOn(Thread.currentThread());
            running.put(key(job), attempt);
            long started = System.nanoTime();
            String result = null;
            String error = null;
            try {
                result = pool.handler.execute(attempt);
            } catch (Throwable t) {
                error = stopping && attempt.isCancelled()
                        ? node + " stopped before the attempt finished (" + describe(t) + ")"
                        : describe(t);
            } finally {
                running.remove(key(job));
                attempt.handlerReturned();
            }
            long ranNanos = System.nanoTime() - started;
            pool.ran(ranNanos);
            long durationMs = TimeUnit.NANOSECONDS.toMillis(ranNanos);
            outcomes.report(
                    error == null
                            ? new SucceedJob(job.jobId(), job.attempt(), result, durationMs)
                            : new FailJob(job.jobId(), job.attempt(), error, durationMs));
        } catch (InterruptedException e) {
            log.error(
                    "job {} attempt {}: interrupted before its outcome was queued; its run deadline will time it out",
                    job.jobId(),
                    job.attempt());
        } catch (RuntimeException e) {
            log.error(
                    "job {} attempt {} could not be run or reported; its run deadline will time it out",
                    job.jobId(),
                    job.attempt(),
                    e);
        } finally {
            pool.inFlight.decrementAndGet();
            onSlotFreed.accept(job.jobType());
        }
    }

    /** A started job handed to its pool; kept as itself so that a shutdown can name the ones that never ran. */
    private final class Run implements Runnable {
        final JobExecutors.TypePool pool;
        final ClaimedJob job;

        Run(JobExecutors.TypePool pool, ClaimedJob job) {
            this.pool = pool;
            this.job = job;
        }

        @Override
        public void run() {
            RunInProcess.this.run(pool, job);
        }
    }

    private void reportQuietly(FailJob outcome) {
        try {
            outcomes.report(outcome);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Stops taking work, lets running attempts finish for up to the grace period, then cancels what is left; attempts
     * that never began fail naming this node, so another node retries them.
     */
    public void shutdown(long graceMs) {
        stopping = true;
        long deadline = clock.millis() + graceMs;
        if (executors.inFlight() > 0)
            log.info(
                    "stopping: waiting up to {} ms for {} running attempt(s) to finish", graceMs, executors.inFlight());
        while (executors.inFlight() > 0 && clock.millis() < deadline) {
            sleepQuietly(50);
        }
        if (!running.isEmpty())
            // each fails naming this node, and its retry policy runs it again on another
            log.warn(
                    "stopping: {} attempt(s) still running after the grace of {} ms are interrupted: {}",
                    running.size(),
                    graceMs,
                    running.values().stream()
                            .map(a -> a.jobId() + " #" + a.attempt())
                            .limit(20)
                            .toList());
        running.values().forEach(a -> {
            a.cancel();
            a.interruptHandler();
        });
        long reportDeadline = clock.millis() + 5_000;
        while (executors.inFlight() > 0 && clock.millis() < reportDeadline) {
            sleepQuietly(50);
        }
        executors
                .pools()
                .forEach(p -> p.executor.shutdownNow().forEach(never -> {
                    // started but still queued behind the pool's threads: it never ran, so it fails here and is retried
                    ClaimedJob job = ((Run) never).job;
                    reportQuietly(
                            new FailJob(job.jobId(), job.attempt(), node + " stopped before the attempt began", 0));
                    p.inFlight.decrementAndGet();
                }));
    }

    public boolean isStopping() {
        return stopping;
    }

    private static String describe(Throwable t) {
        String message = t.getMessage() == null ? "" : ": " + t.getMessage();
        return t.getClass().getSimpleName() + message;
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
