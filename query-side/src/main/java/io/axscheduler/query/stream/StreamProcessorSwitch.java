package io.axscheduler.query.stream;

import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Runs the {@code console-stream} processor only while this node has stream subscribers. Reading and decoding every
 * event of the store is a tenth of a busy node's CPU; with nobody listening it is spent for nothing. The first
 * subscriber starts it from the head of the store before its subscription is answered, so a change committed after
 * that is never missed; it stops once the node has had no subscriber for {@code ax.console.stream.idle-stop-ms}.
 */
@Component
class StreamProcessorSwitch implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(StreamProcessorSwitch.class);

    private final EventProcessingConfiguration processing;
    private final EventStore eventStore;
    private final StreamHub hub;
    private final Clock clock;
    private final long idleStopMs;
    private final ScheduledExecutorService checks;
    private long idleSinceMs;

    StreamProcessorSwitch(
            EventProcessingConfiguration processing,
            EventStore eventStore,
            StreamHub hub,
            Clock clock,
            StreamProperties settings) {
        this.processing = processing;
        this.eventStore = eventStore;
        this.hub = hub;
        this.clock = clock;
        this.idleStopMs = settings.idleStopMs();
        this.idleSinceMs = clock.millis();
        this.checks = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ax-stream-switch");
            t.setDaemon(true);
            return t;
        });
        hub.beforeSubscribe(this::ensureRunning);
    }

    /** Axon starts every processor with the node: this one stops at once unless somebody subscribed meanwhile. */
    @EventListener(ApplicationReadyEvent.class)
    void afterStart() {
        synchronized (this) {
            if (idleSinceMs != Long.MAX_VALUE) idleSinceMs = clock.millis() - idleStopMs;
        }
        stopIfIdle();
        long every = Math.max(100, Math.min(idleStopMs, 5_000));
        checks.scheduleWithFixedDelay(this::stopIfIdle, every, every, TimeUnit.MILLISECONDS);
    }

    synchronized void ensureRunning() {
        idleSinceMs = Long.MAX_VALUE;
        StreamingEventProcessor processor = processor();
        if (processor.isRunning()) return;
        // from the head as it is now, taken before the subscriber is answered: nothing it should see comes before it
        TrackingToken head = eventStore.createHeadToken();
        processor.resetTokens(source -> head);
        processor.start();
        log.debug("console-stream started at {}", head);
    }

    private synchronized void stopIfIdle() {
        try {
            long now = clock.millis();
            if (hub.subscriberCount() > 0) {
                idleSinceMs = Long.MAX_VALUE;
                return;
            }
            if (idleSinceMs == Long.MAX_VALUE) idleSinceMs = now;
            StreamingEventProcessor processor = processor();
            if (processor.isRunning() && now - idleSinceMs >= idleStopMs) {
                processor.shutDown();
                log.debug("console-stream stopped: no subscriber for {} ms", now - idleSinceMs);
            }
        } catch (RuntimeException e) {
            log.warn("could not stop the idle console-stream processor: {}", e.toString());
        }
    }

    private StreamingEventProcessor processor() {
        return processing
                .eventProcessor(ChangeStream.PROCESSING_GROUP, StreamingEventProcessor.class)
                .orElseThrow(() -> new IllegalStateException("no " + ChangeStream.PROCESSING_GROUP + " processor"));
    }

    @Override
    public void destroy() {
        checks.shutdownNow();
    }
}
