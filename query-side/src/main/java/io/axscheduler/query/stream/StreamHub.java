package io.axscheduler.query.stream;

import io.axscheduler.api.Namespaces;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Fans the node's stream of changes out to its SSE subscribers. Publishing never blocks the event processor: each
 * subscriber has a bounded queue, and a subscriber that falls behind loses the overflow and is told how much it lost
 * (event {@code overflow}), so it can reload. Queues are sent every {@code flush-ms} by a small pool, one send at a
 * time per subscriber, so a client that stopped reading holds up only itself. A subscriber asking for changes only
 * gets one {@code changed} event per flush in which something matched: what a page needs to refresh itself, at
 * any rate of events. Subscribers are bounded in number and time; a closed or failed one is dropped at once.
 */
@Component
public class StreamHub implements DisposableBean {

    private final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();
    private final Clock clock;
    private final int maxSubscribers;
    private final int queueCapacity;
    private final long timeoutMs;
    private final long heartbeatMs;
    private final long recheckMs;
    private final ScheduledExecutorService ticks;
    private final ThreadPoolExecutor senders;

    public StreamHub(StreamProperties settings, Clock clock) {
        this.clock = clock;
        this.maxSubscribers = settings.maxSubscribers();
        this.queueCapacity = settings.queue();
        this.timeoutMs = settings.timeoutMs();
        this.heartbeatMs = settings.heartbeatMs();
        this.recheckMs = settings.recheckMs();
        long flushMs = settings.flushMs();
        this.ticks = Executors.newSingleThreadScheduledExecutor(daemon("ax-stream-tick"));
        this.senders = new ThreadPoolExecutor(
                2,
                4,
                60,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(Math.max(16, maxSubscribers)),
                daemon("ax-stream-send"),
                new ThreadPoolExecutor.DiscardPolicy());
        ticks.scheduleWithFixedDelay(this::flushAll, flushMs, flushMs, TimeUnit.MILLISECONDS);
    }

    /**
     * Which changes a subscriber wants; a blank field matches everything. {@code visible}: the namespaces the
     * subscriber may see, null for every one (an admin); a change whose namespace is not known matches only then.
     */
    public record Filter(
            String namespace, String jobId, String scheduleId, boolean changesOnly, java.util.Set<String> visible) {

        boolean matches(Change c) {
            if (visible != null && (c.namespace() == null || !visible.contains(c.namespace()))) return false;
            if (!Namespaces.matches(namespace, c.namespace())) return false;
            if (jobId != null && !(c.kind().equals("job") && jobId.equals(c.id()))) return false;
            return scheduleId == null || scheduleId.equals(c.scheduleId());
        }
    }

    private volatile Runnable beforeSubscribe = () -> {};

    /**
     * Runs before each new subscriber is added, on the subscribing thread: what feeds the hub starts there, so that
     * a change committed after {@link #subscribe} returns is never missed.
     */
    void beforeSubscribe(Runnable action) {
        this.beforeSubscribe = action;
    }

    /** A subscriber whose credentials always hold (tests, the node's own). */
    public SseEmitter subscribe(Filter filter) {
        return subscribe(filter, () -> true);
    }

    /**
     * A new subscriber, or null when the node already serves {@code max-subscribers}. {@code stillHolds} is asked every
     * {@code recheck-ms}; the stream ends when it says no.
     */
    public SseEmitter subscribe(Filter filter, BooleanSupplier stillHolds) {
        if (subscribers.size() >= maxSubscribers) return null;
        beforeSubscribe.run();
        SseEmitter emitter = new SseEmitter(timeoutMs);
        Subscriber s =
                new Subscriber(emitter, filter, new ArrayBlockingQueue<>(queueCapacity), clock.millis(), stillHolds);
        emitter.onCompletion(() -> subscribers.remove(s));
        emitter.onTimeout(() -> subscribers.remove(s));
        emitter.onError(e -> subscribers.remove(s));
        subscribers.add(s);
        // the first bytes tell the browser the stream is open (its EventSource fires "open")
        send(s, SseEmitter.event().comment("ax-scheduler stream").reconnectTime(1000));
        return emitter;
    }

    public int subscriberCount() {
        return subscribers.size();
    }

    public void publish(Change change) {
        for (Subscriber s : subscribers) {
            if (!s.filter.matches(change)) continue;
            if (s.filter.changesOnly()) s.changed.set(true);
            else if (!s.queue.offer(change)) s.dropped.incrementAndGet();
        }
    }

    private void flushAll() {
        long now = clock.millis();
        for (Subscriber s : subscribers) {
            if (s.busy.compareAndSet(false, true)) {
                senders.execute(() -> {
                    try {
                        flush(s, now);
                    } finally {
                        s.busy.set(false);
                    }
                });
            }
        }
    }

    private void flush(Subscriber s, long now) {
        if (now - s.checkedAt >= recheckMs) {
            s.checkedAt = now;
            if (!s.stillHolds.getAsBoolean()) {
                // revoked, deleted or given other grants: what is queued is not sent, and the reconnect is judged anew
                subscribers.remove(s);
                s.emitter.complete();
                return;
            }
        }
        List<Change> batch = new ArrayList<>();
        s.queue.drainTo(batch);
        for (Change c : batch) {
            if (!send(s, SseEmitter.event().name(c.kind()).data(c, MediaType.APPLICATION_JSON))) return;
        }
        long dropped = s.dropped.getAndSet(0);
        if (dropped > 0 && !send(s, SseEmitter.event().name("overflow").data("{\"dropped\":" + dropped + "}"))) return;
        if (s.changed.getAndSet(false)
                && !send(s, SseEmitter.event().name("changed").data("{}"))) return;
        if (batch.isEmpty() && now - s.lastSent > heartbeatMs)
            send(s, SseEmitter.event().comment("heartbeat"));
    }

    private boolean send(Subscriber s, SseEmitter.SseEventBuilder event) {
        try {
            s.emitter.send(event);
            s.lastSent = clock.millis();
            return true;
        } catch (IOException | IllegalStateException e) {
            // the client went away, or the emitter already completed
            subscribers.remove(s);
            try {
                s.emitter.completeWithError(e);
            } catch (IllegalStateException done) {
                // the container already ended the request on the client's error: nothing is left to complete
            }
            return false;
        }
    }

    @Override
    public void destroy() {
        ticks.shutdownNow();
        senders.shutdownNow();
        for (Subscriber s : subscribers) s.emitter.complete();
        subscribers.clear();
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        AtomicLong n = new AtomicLong();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    private static final class Subscriber {
        final SseEmitter emitter;
        final Filter filter;
        final ArrayBlockingQueue<Change> queue;
        final AtomicLong dropped = new AtomicLong();
        final AtomicBoolean changed = new AtomicBoolean();
        final AtomicBoolean busy = new AtomicBoolean();
        final BooleanSupplier stillHolds;
        volatile long lastSent;
        volatile long checkedAt;

        Subscriber(
                SseEmitter emitter,
                Filter filter,
                ArrayBlockingQueue<Change> queue,
                long openedAt,
                BooleanSupplier stillHolds) {
            this.emitter = emitter;
            this.filter = filter;
            this.queue = queue;
            this.lastSent = openedAt;
            this.checkedAt = openedAt;
            this.stillHolds = stillHolds;
        }
    }
}
