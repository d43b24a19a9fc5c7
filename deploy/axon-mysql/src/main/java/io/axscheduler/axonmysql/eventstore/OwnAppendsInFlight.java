package io.axscheduler.axonmysql.eventstore;

import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The global indexes this node's appends hold while their transactions are open: each append's INSERTs took their
 * auto-increment values at once, but its rows become visible only when it commits. A reader that reads past such an
 * index records it as a gap in its token, and every event read after that copies the token's gaps (Axon's
 * {@code GapAwareTrackingToken.advanceTo}): with fire and claim batches of hundreds of events in flight, the 10,000
 * events the embedded store caches held about 300,000 gap entries between them, which the young collections copied
 * over and over. The store's reader stops below the lowest index held here instead ({@link JdbcEventTable}).
 *
 * <p>Only this node's appends are known here; another node's still show as gaps, as Axon handles them. An index held
 * longer than {@code staleMs} (a transaction left open, a completion never reported) no longer holds the reader back:
 * the reader then reads past it, and Axon's gap handling takes over.
 */
final class OwnAppendsInFlight {

    private static final Logger log = LoggerFactory.getLogger(OwnAppendsInFlight.class);

    /** First global index of an append → when it was made (nanoTime). */
    private final ConcurrentSkipListMap<Long, Long> held = new ConcurrentSkipListMap<>();

    private final long staleNanos;
    private final LongSupplier nanoTime;

    OwnAppendsInFlight(long staleMs, LongSupplier nanoTime) {
        this.staleNanos = staleMs * 1_000_000;
        this.nanoTime = nanoTime;
    }

    /** An INSERT took the indexes from {@code firstIndex} on; they are not visible until its transaction commits. */
    void began(long firstIndex) {
        held.put(firstIndex, nanoTime.getAsLong());
    }

    /** The transaction of the INSERT that took {@code firstIndex} committed or rolled back. */
    void ended(long firstIndex) {
        held.remove(firstIndex);
    }

    /** The lowest index an open append of this node holds, or {@link Long#MAX_VALUE} when none does. */
    long lowest() {
        long now = nanoTime.getAsLong();
        try {
            for (Map.Entry<Long, Long> first = held.firstEntry(); first != null; first = held.firstEntry()) {
                if (now - first.getValue() <= staleNanos) return first.getKey();
                if (held.remove(first.getKey(), first.getValue())) givenUp(first.getKey());
            }
            return Long.MAX_VALUE;
        } finally {
            report(now);
        }
    }

    // Appends given up on, said at most once per LOG_EVERY_NANOS: a slow database lets hundreds go stale in a
    // minute, and a line each buried the log (a trial counted 907 in two minutes).
    private static final long LOG_EVERY_NANOS = 10_000_000_000L;
    private volatile long staleCount;
    private long staleFirst = Long.MAX_VALUE;
    private long staleLast = Long.MIN_VALUE;
    private long lastReport = Long.MIN_VALUE;

    private synchronized void givenUp(long index) {
        staleCount++;
        staleFirst = Math.min(staleFirst, index);
        staleLast = Math.max(staleLast, index);
    }

    private void report(long now) {
        if (staleCount != 0) reportHeld(now); // the reader's every call: no lock while nothing went stale
    }

    private synchronized void reportHeld(long now) {
        if (staleCount == 0 || (lastReport != Long.MIN_VALUE && now - lastReport < LOG_EVERY_NANOS)) return;
        log.warn(
                "event store: {} append(s) of this node, holding global indexes {} to {}, had not ended after {} ms"
                        + " (the database is slow to commit); the event reader no longer waits for them",
                staleCount,
                staleFirst,
                staleLast,
                staleNanos / 1_000_000);
        staleCount = 0;
        staleFirst = Long.MAX_VALUE;
        staleLast = Long.MIN_VALUE;
        lastReport = now;
    }

    /** How many appends are held. */
    int size() {
        return held.size();
    }
}
