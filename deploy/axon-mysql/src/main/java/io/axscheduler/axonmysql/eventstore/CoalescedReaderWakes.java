package io.axscheduler.axonmysql.eventstore;

import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.TrackingEventStream;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventsourcing.eventstore.EmbeddedEventStore;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Axon's embedded event store, whose reader (it feeds the saga's processor) is woken once for the commits of a short
 * window instead of once per commit.
 *
 * <p>Axon wakes the reader after every commit that appended events, and the reader then queries until a query comes
 * back empty: two or three statements per commit. A job's events are appended by three commits (the one that makes it,
 * its claim and start, its outcome), so with jobs falling due one by one the reader made about a dozen queries a job.
 * Here the first commit of a
 * window schedules the wake {@code wakeDelayMs} later and the commits after it within the window ride along: the
 * reader reads them in one go. The flag is cleared before the wake, so a commit that lands while the reader reads
 * schedules the next one: every commit is read at most {@code wakeDelayMs} plus one read after it. Commits of other
 * nodes are still found by Axon's periodic fetch.
 *
 * <p>Its streams skip the payload types their processor says it has no handler for ({@link SkippingEventStream}).
 */
public final class CoalescedReaderWakes extends EmbeddedEventStore {

    private final long wakeDelayMs;
    private final AtomicBoolean wakeScheduled = new AtomicBoolean();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "ax-event-reader-wake");
        t.setDaemon(true);
        return t;
    });

    public CoalescedReaderWakes(Builder builder, long wakeDelayMs) {
        super(builder);
        this.wakeDelayMs = wakeDelayMs;
    }

    /**
     * Axon calls this when the unit of work commits. Inside a longer Spring transaction (a claim batch, a batch of
     * schedule fires) that is before the database commit, so the wake waits for that commit: a reader woken earlier
     * would find nothing and leave the events to the periodic fetch.
     */
    @Override
    protected void afterCommit(List<? extends EventMessage<?>> events) {
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    wakeSoon(events);
                }
            });
        } else {
            wakeSoon(events);
        }
    }

    private void wakeSoon(List<? extends EventMessage<?>> events) {
        if (wakeDelayMs == 0) {
            super.afterCommit(events);
        } else if (wakeScheduled.compareAndSet(false, true)) {
            try {
                timer.schedule(
                        () -> {
                            wakeScheduled.set(false);
                            super.afterCommit(events);
                        },
                        wakeDelayMs,
                        TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException stopping) {
                // the store is shutting down: its reader stops with it
            }
        }
    }

    @Override
    public TrackingEventStream openStream(TrackingToken trackingToken) {
        return new SkippingEventStream(super.openStream(trackingToken));
    }

    @Override
    public void shutDown() {
        timer.shutdownNow();
        super.shutDown();
    }
}
