package io.axscheduler.deploy;

import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingEventStream;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

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
 */
final class SkippingEventStream implements TrackingEventStream {

    private final TrackingEventStream events;
    private final Set<Class<?>> skipped = ConcurrentHashMap.newKeySet();

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
            if (!events.hasNextAvailable((int) Math.min(leftMs, Integer.MAX_VALUE), TimeUnit.MILLISECONDS)) return false;
            if (!dropNextIfSkipped()) return true;
        }
    }

    @Override
    public TrackedEventMessage<?> nextAvailable() throws InterruptedException {
        while (true) {
            TrackedEventMessage<?> next = events.nextAvailable();
            if (!skipped.contains(next.getPayloadType())) return next;
        }
    }

    /** Drops the next event if one is at hand and of a skipped type; never waits. */
    private boolean dropNextIfSkipped() {
        Optional<TrackedEventMessage<?>> next = events.peek();
        if (next.isEmpty() || !skipped.contains(next.get().getPayloadType())) return false;
        try {
            events.nextAvailable(); // the event peek just returned: at hand, so this does not block
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        return true;
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
