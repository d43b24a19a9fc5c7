package io.axscheduler.axonmysql.eventstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingEventStream;
import org.axonframework.eventsourcing.eventstore.EmbeddedEventStore;
import org.axonframework.eventsourcing.eventstore.inmemory.InMemoryEventStorageEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The node's event store streams drop the payload types their processor asked to skip, in every way a processor reads
 * (peek, hasNextAvailable, nextAvailable), and hand over every other event in order.
 */
class SkippingEventStreamTest {

    record Kept(int n) {}

    record Unwanted(int n) {}

    private final CoalescedReaderWakes store =
            new CoalescedReaderWakes(EmbeddedEventStore.builder().storageEngine(new InMemoryEventStorageEngine()), 0);

    @AfterEach
    void shutDown() {
        store.shutDown();
    }

    @Test
    void after_the_processor_asks_to_skip_a_type_it_sees_only_the_others_in_order() throws Exception {
        for (int i = 0; i < 10; i++) {
            store.publish(
                    GenericEventMessage.asEventMessage(new Unwanted(i)),
                    GenericEventMessage.asEventMessage(new Kept(i)));
        }
        try (TrackingEventStream stream = store.openStream(null)) {
            TrackedEventMessage<?> first = stream.nextAvailable();
            assertThat(first.getPayload()).isEqualTo(new Unwanted(0));
            stream.skipMessagesWithPayloadTypeOf(first);

            List<Object> seen = new ArrayList<>();
            while (stream.hasNextAvailable(1, TimeUnit.SECONDS)) {
                assertThat(stream.peek())
                        .get()
                        .extracting(TrackedEventMessage::getPayload)
                        .isInstanceOf(Kept.class);
                seen.add(stream.nextAvailable().getPayload());
            }
            assertThat(seen)
                    .containsExactly(
                            new Kept(0),
                            new Kept(1),
                            new Kept(2),
                            new Kept(3),
                            new Kept(4),
                            new Kept(5),
                            new Kept(6),
                            new Kept(7),
                            new Kept(8),
                            new Kept(9));
        }
    }

    @Test
    void only_skipped_events_left_is_nothing_available_and_the_next_kept_one_still_arrives() throws Exception {
        store.publish(GenericEventMessage.asEventMessage(new Unwanted(0)));
        try (TrackingEventStream stream = store.openStream(null)) {
            stream.skipMessagesWithPayloadTypeOf(stream.nextAvailable());
            store.publish(
                    GenericEventMessage.asEventMessage(new Unwanted(1)),
                    GenericEventMessage.asEventMessage(new Unwanted(2)));

            assertThat(stream.hasNextAvailable(200, TimeUnit.MILLISECONDS)).isFalse();
            assertThat(stream.peek()).isEmpty();

            store.publish(
                    GenericEventMessage.asEventMessage(new Unwanted(3)),
                    GenericEventMessage.asEventMessage(new Kept(4)));
            assertThat(stream.nextAvailable().getPayload()).isEqualTo(new Kept(4));
        }
    }

    @Test
    void a_long_run_of_skipped_events_hands_one_over_per_thousand_or_so_so_the_processor_can_store_its_place()
            throws Exception {
        int run = 3 * SkippingEventStream.MAX_DROPPED_IN_A_ROW + 10;
        for (int i = 0; i <= run; i++) store.publish(GenericEventMessage.asEventMessage(new Unwanted(i)));
        store.publish(GenericEventMessage.asEventMessage(new Kept(run + 1)));
        try (TrackingEventStream stream = store.openStream(null)) {
            stream.skipMessagesWithPayloadTypeOf(stream.nextAvailable());

            List<Object> seen = new ArrayList<>();
            while (stream.hasNextAvailable(1, TimeUnit.SECONDS))
                seen.add(stream.nextAvailable().getPayload());

            int per = SkippingEventStream.MAX_DROPPED_IN_A_ROW + 1;
            assertThat(seen)
                    .containsExactly(
                            new Unwanted(per), new Unwanted(2 * per), new Unwanted(3 * per), new Kept(run + 1));
        }
    }

    @Test
    void a_stream_that_was_never_asked_skips_nothing() throws Exception {
        store.publish(
                GenericEventMessage.asEventMessage(new Unwanted(0)), GenericEventMessage.asEventMessage(new Kept(1)));
        try (TrackingEventStream stream = store.openStream(null)) {
            assertThat(stream.nextAvailable().getPayload()).isEqualTo(new Unwanted(0));
            assertThat(stream.nextAvailable().getPayload()).isEqualTo(new Kept(1));
        }
    }
}
