package io.axscheduler.axonmysql.eventstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingEventStream;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventsourcing.eventstore.EmbeddedEventStore;
import org.axonframework.eventsourcing.eventstore.inmemory.InMemoryEventStorageEngine;
import org.junit.jupiter.api.Test;

/**
 * The reader behind the saga's processor: commits within a window wake it once, every committed event still reaches
 * the stream, and a commit after a quiet spell is read at once, not at Axon's periodic fetch (10 s here).
 */
class CoalescedReaderWakesTest {

    /** Counts the reads of the store's shared reader (Axon's producer reads with {@code mayBlock}, consumers without). */
    static final class CountingEngine extends InMemoryEventStorageEngine {
        final AtomicInteger readerReads = new AtomicInteger();

        @Override
        public Stream<? extends TrackedEventMessage<?>> readEvents(TrackingToken token, boolean mayBlock) {
            if (mayBlock) readerReads.incrementAndGet();
            return super.readEvents(token, mayBlock);
        }
    }

    @Test
    void a_hundred_commits_within_a_few_windows_cost_a_few_reads_and_every_event_arrives() throws Exception {
        Run run = publishHundredSpreadCommits(20);

        assertThat(run.received).isEqualTo(101);
        // at most a wake per window while commits come, each a read with events and an empty one, and one window more
        int bound = (int) (2 * (run.publishMs / 20 + 2));
        assertThat(run.readsDuringCommits)
                .as("reads for 100 commits over %d ms", run.publishMs)
                .isLessThanOrEqualTo(bound);
        assertThat(bound)
                .as("the commits took long enough to tell the two apart")
                .isLessThan(100);
        assertThat(run.lastArrivalMs).as("a lone commit after a quiet spell").isLessThan(1_000);
    }

    @Test
    void with_no_window_the_reader_reads_after_each_commit_as_axon_does() throws Exception {
        Run run = publishHundredSpreadCommits(0);

        assertThat(run.received).isEqualTo(101);
        assertThat(run.readsDuringCommits).isGreaterThanOrEqualTo(50);
    }

    record Run(int received, int readsDuringCommits, long publishMs, long lastArrivalMs) {}

    private static Run publishHundredSpreadCommits(long wakeDelayMs) throws Exception {
        CountingEngine engine = new CountingEngine();
        CoalescedReaderWakes store = new CoalescedReaderWakes(
                EmbeddedEventStore.builder().storageEngine(engine).fetchDelay(10_000), wakeDelayMs);
        try (TrackingEventStream stream = store.openStream(null)) {
            store.publish(GenericEventMessage.asEventMessage("warm-up"));
            int received = 0;
            while (received < 1 && stream.hasNextAvailable(5, TimeUnit.SECONDS)) {
                stream.nextAvailable();
                received++;
            }
            // the private stream is read out: the consumer now tails the shared reader, which starts
            assertThat(stream.hasNextAvailable(100, TimeUnit.MILLISECONDS)).isFalse();
            Thread.sleep(200);
            int before = engine.readerReads.get();
            long publishing = System.nanoTime();
            for (int i = 0; i < 100; i++) {
                store.publish(GenericEventMessage.asEventMessage("event " + i));
                Thread.sleep(1);
            }
            long publishMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - publishing);
            while (received < 101 && stream.hasNextAvailable(5, TimeUnit.SECONDS)) {
                stream.nextAvailable();
                received++;
            }
            int reads = engine.readerReads.get() - before;
            Thread.sleep(300);
            long published = System.nanoTime();
            store.publish(GenericEventMessage.asEventMessage("after a quiet spell"));
            long arrivalMs = stream.hasNextAvailable(15, TimeUnit.SECONDS)
                    ? TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - published)
                    : Long.MAX_VALUE;
            return new Run(received, reads, publishMs, arrivalMs);
        } finally {
            store.shutDown();
        }
    }
}
