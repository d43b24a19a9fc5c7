package io.axscheduler.axonmysql.eventstore;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingEventStream;

/**
 * An event stream of the embedded store that honours {@link #skipMessagesWithPayloadTypeOf}: events of a payload type
 * its processor said it has no handler for are dropped here, before the processor sees them. Axon's embedded store
 * ignores that call (only Axon Server's stream acts on it).
 *
 * <p>The saga's pooled processor makes the call for a type none of its segments took and its handlers cannot take
 * (see {@code SegmentRoutedSagaManager#canHandleType}). Without it, every JobCreated, JobClaimed and schedule event
 * went through the processor's coordinator: offered to each of its 4 segments, and queued on each only to move the
 * segment's token past it. Skipping loses nothing: a later event's token covers the positions before it, and a
 * processor that restarts behind skipped events reads them again and skips them again.
 *
 * <p>At most {@value #MAX_DROPPED_IN_A_ROW} events are dropped in a row; the next one is handed over although its type
 * is skipped. The processor reads up to as many events in one round, and between rounds it extends its segment claims
 * and stores its tokens: a long run of skipped events (100,000 schedules made) must neither hold one round for longer
 * than a claim lasts nor leave the tokens where the run began.
 */
final class SkippingEventStream implements TrackingEventStream {

    static final int MAX_DROPPED_IN_A_ROW = 1024;

    private final TrackingEventStream events;
    private final Set<Class<?>> skipped = ConcurrentHashMap.newKeySet();
    /** Events dropped since the last one handed over; only the processor's coordinating thread reads the stream. */
    private int droppedInARow;

    SkippingEventStream(TrackingEventStream events) {
        this.events = events;
    }

    @Override
    public void skipMessagesWithPayloadTypeOf(TrackedEventMessage<?> ignoredMessage) {
        skipped.add(ignoredMessage.getPayloadType());
        events.skipMessagesWithPayloadTypeOf(ignoredMessage);
    }

    @Override
    public Optional<TrackedEventMessage<?>> peek() {
        while (dropNextIfSkipped()) {
            // dropped one; look at the next
        }
        return events.peek();
    }

    @Override
    public boolean hasNextAvailable(int timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (true) {
            long leftMs = TimeUnit.NANOSECONDS.toMillis(Math.max(0, deadline - System.nanoTime()));
            if (!events.hasNextAvailable((int) Math.min(leftMs, Integer.MAX_VALUE), TimeUnit.MILLISECONDS))
                return false;
            if (!dropNextIfSkipped()) return true;
        }
    }

    @Override
    public TrackedEventMessage<?> nextAvailable() throws InterruptedException {
        while (true) {
            TrackedEventMessage<?> next = events.nextAvailable();
            if (!mayDrop(next)) {
                droppedInARow = 0;
                return next;
            }
            droppedInARow++;
        }
    }

    /** Drops the next event if one is at hand and may be dropped; never waits. */
    private boolean dropNextIfSkipped() {
        Optional<TrackedEventMessage<?>> next = events.peek();
        if (next.isEmpty() || !mayDrop(next.get())) return false;
        try {
            events.nextAvailable(); // the event peek just returned: at hand, so this does not block
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        droppedInARow++;
        return true;
    }

    private boolean mayDrop(TrackedEventMessage<?> event) {
        return droppedInARow < MAX_DROPPED_IN_A_ROW && skipped.contains(event.getPayloadType());
    }

    @Override
    public boolean setOnAvailableCallback(Runnable callback) {
        return events.setOnAvailableCallback(callback);
    }

    @Override
    public void close() {
        events.close();
    }
}
