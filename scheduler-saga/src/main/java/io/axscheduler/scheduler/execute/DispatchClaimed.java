package io.axscheduler.scheduler.execute;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.job.FailJob;
import io.axscheduler.api.job.StartJob;
import io.axscheduler.api.job.SucceedJob;
import io.axscheduler.api.job.TimeOutJob;
import io.axscheduler.api.job.TimeoutPhase;
import io.axscheduler.api.problem.IllegalTransitionException;
import io.axscheduler.scheduler.SchedulerCommands;
import io.axscheduler.scheduler.SchedulerProperties;
import io.axscheduler.scheduler.worker.DispatchRemote;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Runs claimed jobs on their type's pool: start (JobStarted), execute the handler, report the outcome. An outcome
 * the aggregate refuses — the attempt was canceled or timed out meanwhile — is dropped: the aggregate only takes the
 * outcome of the attempt that is running. Jobs bound to an executor app, or of a type no handler here runs, are
 * pushed to remote workers instead.
 */
@Component
public class DispatchClaimed {

    public static final String IN_PROCESS_WORKER = "in-process";
    private static final Logger log = LoggerFactory.getLogger(DispatchClaimed.class);
    private static final int MAX_ERROR_LENGTH = 2000;
    private static final int REPORT_ATTEMPTS = 5;

    private final JobExecutors executors;
    private final DispatchRemote remote;
    private final SchedulerCommands commands;
    private final ObjectMapper json;
    private final String node;
    /** Keyed by job id and attempt: a timed-out attempt may still be winding down when the retry starts here. */
    private final Map<String, RunningAttempt> running = new ConcurrentHashMap<>();
    private volatile boolean stopping;
    private volatile Runnable onSlotFreed = () -> { };

    public DispatchClaimed(JobExecutors executors, DispatchRemote remote, SchedulerCommands commands, ObjectMapper json,
                           @Value("${ax.node.id}") String node) {
        this.executors = executors;
        this.remote = remote;
        this.commands = commands;
        this.json = json;
        this.node = node;
    }

    /** Called whenever a run ends and its slot is free again (the scanner uses it to drain a backlog at once). */
    public void onSlotFreed(Runnable listener) {
        this.onSlotFreed = listener;
    }

    public void dispatch(ClaimedJob job) {
        if (job.executorApp() != null || !executors.runsInProcess(job.jobType())) {
            remote.dispatch(job);
            return;
        }
        JobExecutors.TypePool pool = executors.poolOf(job.jobType());
        pool.inFlight.incrementAndGet();
        try {
            pool.executor.execute(() -> run(pool, job));
        } catch (RejectedExecutionException e) {
            pool.inFlight.decrementAndGet();
            release(job);
        }
    }

    Collection<RunningAttempt> running() {
        return running.values();
    }

    private static String key(ClaimedJob job) {
        return job.jobId() + "#" + job.attempt();
    }

    private void run(JobExecutors.TypePool pool, ClaimedJob job) {
        try {
            if (stopping) {
                release(job);
                return;
            }
            RunningAttempt attempt = new RunningAttempt(job, params(job));
            try {
                commands.sendAndWait(new StartJob(job.jobId(), job.attempt(), node, IN_PROCESS_WORKER));
            } catch (IllegalTransitionException lost) {
                log.debug("job {} attempt {} not started: {}", job.jobId(), job.attempt(), lost.getMessage());
                return;
            }
            attempt.runOn(Thread.currentThread());
            running.put(key(job), attempt);
            long started = System.nanoTime();
            String result = null;
            String error = null;
            try {
                result = pool.handler.execute(attempt);
            } catch (Throwable t) {
                error = stopping && attempt.isCancelled()
                        ? truncate(node + " stopped before the attempt finished (" + describe(t) + ")")
                        : describe(t);
            } finally {
                running.remove(key(job));
                attempt.handlerReturned();
            }
            long durationMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            report(error == null
                    ? new SucceedJob(job.jobId(), job.attempt(), truncate(result), durationMs)
                    : new FailJob(job.jobId(), job.attempt(), error, durationMs));
        } catch (RuntimeException e) {
            log.error("job {} attempt {} could not be run or reported; its run deadline will time it out", job.jobId(), job.attempt(), e);
        } finally {
            pool.inFlight.decrementAndGet();
            onSlotFreed.run();
        }
    }

    /**
     * A database hiccup must not lose an outcome: try a few times. If all fail, the saga's run deadline times the
     * attempt out and the retry policy takes over, so the job is never stuck.
     */
    private void report(Object outcome) {
        for (int i = 1; ; i++) {
            try {
                commands.sendAndWait(outcome);
                return;
            } catch (IllegalTransitionException refused) {
                log.debug("outcome refused, the attempt already ended: {}", refused.getMessage());
                return;
            } catch (RuntimeException e) {
                if (i == REPORT_ATTEMPTS) throw e;
                log.warn("reporting {} failed (try {} of {}): {}", outcome, i, REPORT_ATTEMPTS, e.toString());
                sleepQuietly(200L * i);
            }
        }
    }

    /** Hands a claim back without using a retry: the job never ran here. */
    private void release(ClaimedJob job) {
        try {
            commands.sendAndWait(new TimeOutJob(job.jobId(), job.attempt(), TimeoutPhase.CLAIM));
        } catch (RuntimeException e) {
            log.warn("could not release claim of job {}; its lease will expire instead: {}", job.jobId(), e.toString());
        }
    }

    /** Stops taking work, lets running jobs finish for up to the grace period, then cancels what is left. */
    public void shutdown(long graceMs) {
        stopping = true;
        long deadline = System.currentTimeMillis() + graceMs;
        while (executors.inFlight() > 0 && System.currentTimeMillis() < deadline) {
            sleepQuietly(50);
        }
        running.values().forEach(a -> {
            a.cancel();
            a.interruptHandler();
        });
        long reportDeadline = System.currentTimeMillis() + 5_000;
        while (executors.inFlight() > 0 && System.currentTimeMillis() < reportDeadline) {
            sleepQuietly(50);
        }
        executors.pools().forEach(p -> p.executor.shutdownNow());
        remote.shutdown();
    }

    public boolean isStopping() {
        return stopping;
    }

    private Map<String, Object> params(ClaimedJob job) {
        if (job.paramsJson() == null || job.paramsJson().isEmpty()) return Map.of();
        try {
            return json.readValue(job.paramsJson(), new TypeReference<Map<String, Object>>() { });
        } catch (Exception e) {
            throw new IllegalStateException("params of job " + job.jobId() + " are not a JSON object", e);
        }
    }

    private static String describe(Throwable t) {
        String message = t.getMessage() == null ? "" : ": " + t.getMessage();
        return truncate(t.getClass().getSimpleName() + message);
    }

    private static String truncate(String s) {
        return s == null || s.length() <= MAX_ERROR_LENGTH ? s : s.substring(0, MAX_ERROR_LENGTH);
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
