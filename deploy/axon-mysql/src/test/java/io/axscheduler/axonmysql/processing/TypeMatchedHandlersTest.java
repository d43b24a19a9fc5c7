package io.axscheduler.axonmysql.processing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.axonframework.config.Configuration;
import org.axonframework.config.Configurer;
import org.axonframework.config.DefaultConfigurer;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.AbstractEventProcessor;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.EventHandlerInvoker;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.eventhandling.MultiEventHandlerInvoker;
import org.axonframework.eventhandling.Segment;
import org.axonframework.eventhandling.SimpleEventHandlerInvoker;
import org.axonframework.eventhandling.Timestamp;
import org.axonframework.eventsourcing.eventstore.inmemory.InMemoryEventStorageEngine;
import org.axonframework.messaging.annotation.MetaDataValue;
import org.junit.jupiter.api.Test;

/**
 * A group's handlers answer as Axon's own do for every kind of handler parameter, ask Axon once per payload type they
 * have no handler for, and are what a subscribing processor of {@link TrimmedHandlersProcessing} uses (an Axon
 * upgrade that changes either fails here).
 */
class TypeMatchedHandlersTest {

    record Created(String id) {}

    static class Base {}

    static class Sub extends Base {}

    record Tagged(String id) {}

    record Unrelated(String id) {}

    @ProcessingGroup("projection")
    static class Projection {
        final List<Object> seen = Collections.synchronizedList(new ArrayList<>());

        @EventHandler
        void on(Created e) {
            seen.add(e);
        }

        @EventHandler
        void on(Base e, @Timestamp Instant at) {
            seen.add(e);
        }

        @EventHandler
        void on(Tagged e, @MetaDataValue(value = "tenant", required = true) String tenant) {
            seen.add(e);
        }
    }

    private static EventMessage<?> event(Object payload, Map<String, ?> metadata) {
        return GenericEventMessage.asEventMessage(payload).andMetaData(metadata);
    }

    @Test
    void answers_as_axons_own_handlers_for_every_kind_of_handler() {
        EventHandlerInvoker axon = new MultiEventHandlerInvoker(SimpleEventHandlerInvoker.builder()
                .eventHandlers(new Projection())
                .build());
        EventHandlerInvoker matched = TypeMatchedHandlers.wrap(axon);

        Map<EventMessage<?>, Boolean> expected = Map.of(
                event(new Created("c"), Map.of()), true,
                event(new Sub(), Map.of()), true,
                event(new Tagged("t"), Map.of("tenant", "a")), true,
                event(new Tagged("t"), Map.of()), false,
                event(new Unrelated("u"), Map.of()), false);
        // twice: the second ask of each type is answered from the map
        for (int round = 0; round < 2; round++) {
            expected.forEach((message, handles) -> {
                assertThat(axon.canHandle(message, Segment.ROOT_SEGMENT))
                        .as("Axon, %s", message.getPayloadType().getSimpleName())
                        .isEqualTo(handles);
                assertThat(matched.canHandle(message, Segment.ROOT_SEGMENT))
                        .as("type-matched, %s", message.getPayloadType().getSimpleName())
                        .isEqualTo(handles);
            });
        }
    }

    @Test
    void a_payload_type_without_a_handler_is_asked_of_axon_once() {
        AtomicInteger typeAsks = new AtomicInteger(), asks = new AtomicInteger();
        EventHandlerInvoker counted = new EventHandlerInvoker() {
            @Override
            public boolean canHandle(EventMessage<?> eventMessage, Segment segment) {
                asks.incrementAndGet();
                return eventMessage.getPayload() instanceof Created;
            }

            @Override
            public boolean canHandleType(Class<?> payloadType) {
                typeAsks.incrementAndGet();
                return payloadType == Created.class;
            }

            @Override
            public void handle(EventMessage<?> message, Segment segment) {}
        };
        EventHandlerInvoker matched = TypeMatchedHandlers.wrap(counted);

        for (int i = 0; i < 1000; i++) {
            assertThat(matched.canHandle(event(new Unrelated("u" + i), Map.of()), Segment.ROOT_SEGMENT))
                    .isFalse();
        }
        assertThat(matched.canHandle(event(new Created("c"), Map.of()), Segment.ROOT_SEGMENT))
                .isTrue();

        assertThat(typeAsks).hasValue(2);
        assertThat(asks).hasValue(1);
    }

    @Test
    void the_modules_subscribing_processors_ask_through_it_and_handle_what_they_did_before() {
        Projection projection = new Projection();
        TrimmedHandlersProcessing processing = new TrimmedHandlersProcessing();
        Configurer configurer = DefaultConfigurer.defaultConfiguration()
                .configureEmbeddedEventStore(c -> new InMemoryEventStorageEngine())
                .registerModule(processing);
        // registered on the module that joined the configurer, as Spring's starter does
        processing.registerEventHandler(c -> projection).registerSubscribingEventProcessor("projection");
        Configuration axon = configurer.buildConfiguration();
        axon.start();
        try {
            AbstractEventProcessor processor = (AbstractEventProcessor) axon.eventProcessingConfiguration()
                    .eventProcessor("projection")
                    .orElseThrow();
            assertThat(((MultiEventHandlerInvoker) processor.eventHandlerInvoker()).delegates())
                    .allMatch(TypeMatchedHandlers.class::isInstance);

            axon.eventBus()
                    .publish(
                            event(new Created("c"), Map.of()),
                            event(new Unrelated("u"), Map.of()),
                            event(new Sub(), Map.of()),
                            event(new Tagged("t"), Map.of()),
                            event(new Tagged("t2"), Map.of("tenant", "a")));

            assertThat(projection.seen).hasSize(3);
            assertThat(projection.seen.get(0)).isEqualTo(new Created("c"));
            assertThat(projection.seen.get(1)).isInstanceOf(Sub.class);
            assertThat(projection.seen.get(2)).isEqualTo(new Tagged("t2"));
        } finally {
            axon.shutdown();
        }
    }
}
