package io.axscheduler.scheduler.run;

import io.axscheduler.api.job.JobCommand;
import io.axscheduler.api.job.SucceedJob;
import io.axscheduler.api.problem.IllegalTransitionException;
import io.axscheduler.scheduler.DatabaseUnreachable;
import io.axscheduler.scheduler.SchedulerCommands;
import io.axscheduler.scheduler.SchedulerProperties;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Writes the outcomes of finished attempts, many in one transaction: a handler hands its outcome over and its thread
 * is free for the next job at once. The queue is bounded (a handler that finds it full waits). While the database is
 * out of reach (a connection failure, and it does not answer) the writer waits for it, asking every
 * {@link #OUTAGE_PAUSE_MS}, however long it takes, and then sends the batch again:
 * an outcome given up then would be timed out by its run deadline and the job run again (the run deadline, late after
 * an outage, gives the writer a grace period first: see {@code JobLifecycleSaga}). A batch that fails whole for
 * another reason — another node moved one of its jobs — is written again one outcome at a time, each tried a few
 * times; an outcome that still cannot be written is left to the saga's run deadline, which times the attempt out, so
 * no job is ever stuck. An outcome the job refuses (the attempt was canceled or timed out meanwhile) is dropped: the
 * job only takes the outcome of the attempt that is running.
 */
@Component
public class ReportOutcomes {

    private static final Logger log = LoggerFactory.getLogger(ReportOutcomes.class);
    private static final int TRIES_ONE_BY_ONE = 5;
    static final long OUTAGE_PAUSE_MS = 500;

    private final SchedulerCommands commands;
    private final BlockingQueue<JobCommand> queue;
    private final int batchSize;
    private final long gatherNanos;
    private final Thread writer;
    private volatile boolean stopping;
    /** Reported and not yet written (queued or in the batch being written); the shutdown waits for it to drain. */
    private final AtomicInteger pending = new AtomicInteger();

    private volatile Runnable onWritten = () -> {};

    private final Clock clock;
    private final BooleanSupplier reachable;

    @Autowired
    public ReportOutcomes(SchedulerCommands commands, SchedulerProperties properties, Clock clock, JdbcTemplate jdbc) {
        this(commands, properties, clock, () -> DatabaseUnreachable.answers(jdbc));
    }

    /** {@code reachable}: whether the database answers now (it waits at most the pool's connection timeout). */
    ReportOutcomes(SchedulerCommands commands, SchedulerProperties properties, Clock clock, BooleanSupplier reachable) {
        this.reachable = reachable;
        this.clock = clock;
        this.commands = commands;
        this.queue = new ArrayBlockingQueue<>(properties.execution().reportQueue());
        this.batchSize = properties.execution().reportBatch();
        this.gatherNanos = TimeUnit.MILLISECONDS.toNanos(properties.execution().reportGatherMs());
        this.writer = new Thread(this::loop, "ax-outcomes");
        this.writer.setDaemon(true);
        this.writer.start();
    }

    /** Queues the outcome of an attempt; waits while the queue is full. */
    public void report(JobCommand outcome) throws InterruptedException {
        pending.incrementAndGet();
        try {
            queue.put(outcome);
        } catch (InterruptedException e) {
            pending.decrementAndGet();
            throw e;
        }
    }

    /** More outcomes are waiting than one transaction writes: finished jobs are being recorded later than they end. */
    public boolean behind() {
        return pending.get() > batchSize;
    }

    /** Called after each batch is written (the scanner holds back while {@link #behind()}, and goes on from here). */
    public void onWritten(Runnable listener) {
        this.onWritten = listener;
    }

    /** Stops after writing what is queued, waiting up to {@code timeoutMs}. */
    public void drainAndStop(long timeoutMs) {
        long deadline = clock.millis() + timeoutMs;
        while (pending.get() > 0 && clock.millis() < deadline) {
            sleepQuietly(20);
        }
        stopping = true;
        if (!queue.isEmpty()) {
            log.warn(
                    "{} outcomes were not written before the stop; their run deadlines will time those attempts out",
                    queue.size());
        }
    }

    private void loop() {
        List<JobCommand> batch = new ArrayList<>(batchSize);
        while (!stopping) {
            try {
                JobCommand first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) continue;
                batch.add(first);
                gather(batch, System.nanoTime() + gatherNanos);
                write(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                log.error(
                        "outcomes of {} attempts could not be written; their run deadlines will time them out",
                        batch.size(),
                        e);
            } finally {
                pending.addAndGet(-batch.size());
                batch.clear();
                onWritten.run();
            }
        }
    }

    /**
     * Jobs ending a few milliseconds apart share a transaction: one commit, one append and one projection batch for
     * them instead of one each. Takes what is queued, then waits until {@code endNanos} for more, or until the batch
     * is full.
     */
    private void gather(List<JobCommand> batch, long endNanos) throws InterruptedException {
        while (true) {
            queue.drainTo(batch, batchSize - batch.size());
            long left = endNanos - System.nanoTime();
            if (batch.size() >= batchSize || left <= 0) return;
            JobCommand next = queue.poll(left, TimeUnit.NANOSECONDS);
            if (next == null) return;
            batch.add(next);
        }
    }

    private void write(List<JobCommand> batch) {
        List<String> refusals;
        try {
            refusals = sendWaitingOutOutages(batch);
        } catch (RuntimeException whole) {
            if (stopping && DatabaseUnreachable.in(whole)) {
                log.warn(
                        "{} outcomes not written: the node stops while the database is out of reach; their run"
                                + " deadlines will time those attempts out",
                        batch.size());
                return;
            }
            log.debug(
                    "a batch of {} outcomes failed whole ({}); writing them one by one",
                    batch.size(),
                    whole.toString());
            batch.forEach(this::writeOne);
            return;
        }
        for (int i = 0; i < batch.size(); i++) {
            if (refusals.get(i) != null) refused(batch.get(i), refusals.get(i));
        }
    }

    /**
     * An outcome the job refused. A success is worth a warning: the work was done and the record says otherwise. It
     * happens when the attempt was canceled, or timed out before the outcome was written (the handler overran its
     * timeout, or this node was cut off from the database while the other nodes timed the attempt out), and a
     * timed-out attempt is retried by its policy, so the work may run again.
     */
    private static void refused(JobCommand outcome, String why) {
        // a success sent again after a lost answer (a connection that failed in the commit) finds itself recorded
        if (outcome instanceof SucceedJob success
                && !why.contains(" is SUCCEEDED at attempt " + success.attempt() + ";")) {
            log.warn(
                    "job {} attempt {} succeeded here, but the job no longer takes its outcome ({}): the success is"
                            + " not recorded, and a retry of a timed-out attempt runs the work again",
                    success.jobId(),
                    success.attempt(),
                    why);
        } else {
            log.debug("outcome refused, the attempt already ended: {}", why);
        }
    }

    /**
     * The batch; after a connection failure while the database does not answer, sent once more when it does (a
     * connection failure while it answers is the batch's own, thrown as other failures are).
     */
    private List<String> sendWaitingOutOutages(List<JobCommand> batch) {
        try {
            return commands.sendBatch(batch);
        } catch (RuntimeException e) {
            long failedAt = clock.millis();
            if (!DatabaseUnreachable.in(e) || !awaitDatabase(batch.size(), e)) throw e;
            List<String> refusals = commands.sendBatch(batch);
            log.info("the database is back: {} outcomes written after {} ms", batch.size(), clock.millis() - failedAt);
            return refusals;
        }
    }

    /**
     * After a connection failure: false when the database answers (the failure was not an outage), else waits until
     * it answers again and says true (false when the node stops or the thread is interrupted meanwhile).
     */
    private boolean awaitDatabase(int waiting, RuntimeException cause) {
        if (reachable.getAsBoolean()) return false;
        log.warn("the database is out of reach: {} outcomes wait for it ({})", waiting, cause.toString());
        while (!stopping && !Thread.currentThread().isInterrupted()) {
            sleepQuietly(OUTAGE_PAUSE_MS);
            if (reachable.getAsBoolean()) return true;
        }
        return false;
    }

    private void writeOne(JobCommand outcome) {
        for (int i = 1; ; i++) {
            try {
                commands.sendAndWait(outcome);
                return;
            } catch (IllegalTransitionException refused) {
                refused(outcome, refused.getMessage());
                return;
            } catch (RuntimeException e) {
                if (DatabaseUnreachable.in(e) && !stopping && awaitDatabase(1, e)) {
                    i--; // not a try: the outcome waited for the database as the batches do
                    continue;
                }
                if (i == TRIES_ONE_BY_ONE) {
                    log.error("could not write {}; its run deadline will time the attempt out", outcome, e);
                    return;
                }
                log.warn("writing {} failed (try {} of {}): {}", outcome, i, TRIES_ONE_BY_ONE, e.toString());
                sleepQuietly(200L * i);
            }
        }
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
