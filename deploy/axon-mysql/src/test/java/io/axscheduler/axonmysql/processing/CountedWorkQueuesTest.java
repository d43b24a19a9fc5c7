package io.axscheduler.axonmysql.processing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import org.axonframework.common.transaction.NoTransactionManager;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.EventMessageHandler;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.eventhandling.SimpleEventHandlerInvoker;
import org.axonframework.eventhandling.pooled.PooledStreamingEventProcessor;
import org.axonframework.eventhandling.tokenstore.inmemory.InMemoryTokenStore;
import org.axonframework.eventsourcing.eventstore.EmbeddedEventStore;
import org.axonframework.eventsourcing.eventstore.inmemory.InMemoryEventStorageEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A pooled processor whose work queues were replaced hands every event to its handlers once, through queues that
 * count themselves, one per segment; the replacement finds Axon's fields (an Axon upgrade that moves them fails here).
 */
class CountedWorkQueuesTest {

    private final EmbeddedEventStore store = EmbeddedEventStore.builder()
            .storageEngine(new InMemoryEventStorageEngine())
            .build();
    private final ScheduledExecutorService coordinator = Executors.newSingleThreadScheduledExecutor();
    private final ScheduledExecutorService workers = Executors.newScheduledThreadPool(2);
    private final List<Integer> handled = Collections.synchronizedList(new ArrayList<>());
    private final PooledStreamingEventProcessor processor = PooledStreamingEventProcessor.builder()
            .name("counted")
            .eventHandlerInvoker(SimpleEventHandlerInvoker.builder()
                    .eventHandlers((EventMessageHandler) event -> {
                        handled.add((Integer) event.getPayload());
                        return null;
                    })
                    .build())
            .messageSource(store)
            .tokenStore(new InMemoryTokenStore())
            .transactionManager(NoTransactionManager.instance())
            .coordinatorExecutor(coordinator)
            .workerExecutor(workers)
            .initialSegmentCount(2)
            .batchSize(100)
            .build();

    @AfterEach
    void shutDown() {
        processor.shutDown();
        coordinator.shutdownNow();
        workers.shutdownNow();
        store.shutDown();
    }

    @Test
    void every_event_is_handled_once_through_counted_queues() throws Exception {
        assertThat(CountedWorkQueues.install(processor)).isTrue();
        List<EventMessage<?>> events = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) events.add(GenericEventMessage.asEventMessage(i));
        store.publish(events);

        processor.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> handled.size() >= 5_000);
        Thread.sleep(200); // an event handled twice would show up now

        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) expected.add(i);
        List<Integer> sorted = new ArrayList<>(handled);
        Collections.sort(sorted);
        assertThat(sorted).containsExactlyElementsOf(expected);
        Map<Integer, Queue<?>> queues = CountedWorkQueues.queues(processor);
        assertThat(queues).hasSize(2);
        assertThat(queues.values()).allSatisfy(queue -> assertThat(queue).isInstanceOf(LinkedBlockingQueue.class));
    }
}
