package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.axscheduler.api.job.JobClaimed;
import io.axscheduler.api.job.JobCreated;
import io.axscheduler.api.job.JobStarted;
import io.axscheduler.api.job.JobSucceeded;
import io.axscheduler.axonmysql.eventstore.CoalescedReaderWakes;
import io.axscheduler.axonmysql.processing.TypeMatchedHandlers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.axonframework.common.stream.BlockingStream;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.AbstractEventProcessor;
import org.axonframework.eventhandling.EventBus;
import org.axonframework.eventhandling.MultiEventHandlerInvoker;
import org.axonframework.eventhandling.SubscribingEventProcessor;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The node's event store on MariaDB: the saga's reader is woken by {@link CoalescedReaderWakes}, and reads made
 * outside a transaction ({@link ReadsOutsideTransactions}) return the events and give their connection back to a
 * pool of 10 — fifty of them would exhaust it otherwise. Its streams skip the payload types their reader asked to
 * skip ({@link SkippingEventStream}).
 */
class EventReaderIT {

    static Node node;

    @BeforeAll
    static void start() {
        node = Node.start(TestDatabase.freshDatabase("event_reader"), "node-a", Map.of());
    }

    @AfterAll
    static void stop() {
        node.close();
    }

    @Test
    void the_event_bus_is_the_store_whose_reader_wakes_once_a_window() {
        assertThat(node.bean(EventBus.class)).isInstanceOf(CoalescedReaderWakes.class);
    }

    @Test
    void each_subscribing_processor_matches_events_to_its_handlers_by_payload_type() {
        for (String name : List.of("job-queue", "schedules", "alerts", "ax-metrics", "scan-wakeup", "job-cache")) {
            AbstractEventProcessor processor = (AbstractEventProcessor) node.bean(EventProcessingConfiguration.class)
                    .eventProcessor(name)
                    .orElseThrow();
            assertThat(processor).as(name).isInstanceOf(SubscribingEventProcessor.class);
            assertThat(((MultiEventHandlerInvoker) processor.eventHandlerInvoker()).delegates())
                    .as(name)
                    .isNotEmpty()
                    .allMatch(TypeMatchedHandlers.class::isInstance);
        }
    }

    @Test
    void job_ids_and_event_ids_are_version_7_uuids_so_the_event_stores_keys_grow_at_their_right_edge() {
        String jobId = node.api.submit("{\"jobType\":\"noop\"}");
        node.api.awaitStatus(jobId, "SUCCEEDED");

        assertThat(UUID.fromString(jobId).version()).isEqualTo(7);
        List<String> eventIds = node.jdbc()
                .queryForList(
                        "SELECT eventIdentifier FROM DomainEventEntry"
                                + " WHERE aggregateIdentifier = ? ORDER BY sequenceNumber",
                        String.class,
                        jobId);
        assertThat(eventIds).hasSize(4).allMatch(id -> UUID.fromString(id).version() == 7);
        // the first 13 characters hold the millisecond: within one the rest is random
        assertThat(eventIds.stream().map(id -> id.substring(0, 13)).toList()).isSorted();
    }

    @Test
    void the_nodes_event_streams_skip_a_type_their_reader_asked_to_skip() throws Exception {
        String first = node.api.submit("{\"jobType\":\"noop\"}");
        node.api.awaitStatus(first, "SUCCEEDED");
        try (BlockingStream<TrackedEventMessage<?>> stream =
                node.bean(EventStore.class).openStream(null)) {
            TrackedEventMessage<?> created;
            do {
                created = stream.nextAvailable();
            } while (!(created.getPayload() instanceof JobCreated));
            stream.skipMessagesWithPayloadTypeOf(created);

            String second = node.api.submit("{\"jobType\":\"noop\"}");
            node.api.awaitStatus(second, "SUCCEEDED");
            List<Class<?>> secondsEvents = new ArrayList<>();
            while (stream.hasNextAvailable(1, TimeUnit.SECONDS)) {
                TrackedEventMessage<?> event = stream.nextAvailable();
                if (event.getPayload().toString().contains(second)) secondsEvents.add(event.getPayloadType());
            }
            assertThat(secondsEvents).containsExactly(JobClaimed.class, JobStarted.class, JobSucceeded.class);
        }
    }

    @Test
    void fifty_reads_outside_a_transaction_return_the_events_and_give_their_connections_back() {
        String jobId = node.api.submit("{\"jobType\":\"noop\"}");
        node.api.awaitStatus(jobId, "SUCCEEDED");
        EventStorageEngine events = node.bean(EventStorageEngine.class);

        for (int i = 0; i < 50; i++) {
            assertThat(events.readEvents(jobId).asStream().count()).isEqualTo(4);
            assertThat(events.readEvents(null, false)
                            .filter(e -> e.getPayload().toString().contains(jobId))
                            .count())
                    .isEqualTo(4);
        }

        HikariDataSource pool = node.bean(HikariDataSource.class);
        assertThat(pool.getMaximumPoolSize()).isEqualTo(10);
        Await.until(
                Duration.ofSeconds(5),
                () -> pool.getHikariPoolMXBean().getActiveConnections() <= 3,
                () -> pool.getHikariPoolMXBean().getActiveConnections() + " connections in use");
    }
}
