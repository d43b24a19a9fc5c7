package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.axscheduler.api.job.JobClaimed;
import io.axscheduler.api.job.JobCreated;
import io.axscheduler.api.job.JobStarted;
import io.axscheduler.api.job.JobSucceeded;
import io.axscheduler.axonmysql.eventstore.CoalescedReaderWakes;
import io.axscheduler.axonmysql.processing.OneGroupHandlers;
import io.axscheduler.axonmysql.processing.TypeMatchedHandlers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.axonframework.common.jdbc.ConnectionProvider;
import org.axonframework.common.stream.BlockingStream;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.AbstractEventProcessor;
import org.axonframework.eventhandling.EventBus;
import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.eventhandling.MultiEventHandlerInvoker;
import org.axonframework.eventhandling.SubscribingEventProcessor;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.pooled.PooledStreamingEventProcessor;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.eventsourcing.eventstore.jdbc.EventSchema;
import org.axonframework.eventsourcing.eventstore.jdbc.JdbcEventStorageEngine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The node's event store on MariaDB: the saga's reader is woken by {@link CoalescedReaderWakes}, and reads made
 * outside a transaction ({@link ReadsOutsideTransactions}) return the events and give their connection back to a
 * pool of 10 — fifty of them would exhaust it otherwise. Its streams skip the payload types their reader asked to
 * skip ({@link SkippingEventStream}), and its reader does not read past an append of this node still open
 * ({@code ax.axon.reader-below-own-appends}, on by default and named here so the test keeps saying what it needs; off,
 * the same test finds the later event with the open one as a gap).
 */
class EventReaderIT {

    static Node node;

    @BeforeAll
    static void start() {
        node = Node.start(
                TestDatabase.freshDatabase("event_reader"),
                "node-a",
                Map.of("ax.axon.reader-below-own-appends", "true"));
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
    void the_pooled_processors_hand_their_one_group_an_accepted_event_without_asking_again() {
        for (String name : List.of("job-lifecycle", "console-stats")) {
            AbstractEventProcessor processor = (AbstractEventProcessor) node.bean(EventProcessingConfiguration.class)
                    .eventProcessor(name)
                    .orElseThrow();
            assertThat(processor).as(name).isInstanceOf(PooledStreamingEventProcessor.class);
            assertThat(processor.eventHandlerInvoker()).as(name).isInstanceOf(OneGroupHandlers.class);
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

    @Test
    void the_reader_stops_below_an_append_of_this_node_still_open_and_leaves_no_gap() throws Exception {
        EventStorageEngine events = node.bean(EventStorageEngine.class);
        EventStore store = node.bean(EventStore.class);
        TransactionTemplate transaction = new TransactionTemplate(node.bean(PlatformTransactionManager.class));
        String run = UUID.randomUUID().toString();
        long before =
                node.jdbc().queryForObject("SELECT COALESCE(MAX(globalIndex), 0) FROM DomainEventEntry", Long.class);

        CountDownLatch appended = new CountDownLatch(1), release = new CountDownLatch(1);
        ExecutorService open = Executors.newSingleThreadExecutor();
        Future<?> first = open.submit(() -> transaction.executeWithoutResult(tx -> {
            store.publish(GenericEventMessage.asEventMessage("first-" + run));
            appended.countDown();
            try {
                assertThat(release.await(30, TimeUnit.SECONDS)).isTrue();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }));
        try {
            assertThat(appended.await(10, TimeUnit.SECONDS)).isTrue();
            transaction.executeWithoutResult(tx -> store.publish(GenericEventMessage.asEventMessage("second-" + run)));
            assertThat(node.jdbc()
                            .queryForObject(
                                    "SELECT COUNT(*) FROM DomainEventEntry WHERE globalIndex > ?", Long.class, before))
                    .as("the second append is committed, the first not")
                    .isEqualTo(1);

            // the second event is committed, but above the first one's index, which is held: not read yet
            assertThat(ours(events, before, run)).isEmpty();
        } finally {
            release.countDown();
            first.get(30, TimeUnit.SECONDS);
            open.shutdown();
        }
        List<TrackedEventMessage<?>> read = ours(events, before, run);
        assertThat(read.stream().map(e -> e.getPayload().toString()).toList())
                .containsExactly("first-" + run, "second-" + run);
        assertThat(((GapAwareTrackingToken) read.get(1).trackingToken()).getGaps())
                .isEmpty();
    }

    /**
     * The node's store parses a stored event's timestamp once and computes its token itself: tokens (with their gaps)
     * and timestamps must be what Axon's own engine reads from the same rows. A rolled-back append leaves a gap.
     */
    @Test
    void tokens_gaps_and_timestamps_read_as_axons_own_engine_reads_them() {
        EventStore store = node.bean(EventStore.class);
        TransactionTemplate transaction = new TransactionTemplate(node.bean(PlatformTransactionManager.class));
        String run = UUID.randomUUID().toString();
        long before =
                node.jdbc().queryForObject("SELECT COALESCE(MAX(globalIndex), 0) FROM DomainEventEntry", Long.class);
        transaction.executeWithoutResult(tx -> store.publish(GenericEventMessage.asEventMessage("one-" + run)));
        transaction.executeWithoutResult(tx -> {
            store.publish(GenericEventMessage.asEventMessage("rolled-back-" + run));
            tx.setRollbackOnly();
        });
        transaction.executeWithoutResult(tx -> store.publish(GenericEventMessage.asEventMessage("two-" + run)));
        node.api.awaitStatus(node.api.submit("{\"jobType\":\"noop\"}"), "SUCCEEDED");

        org.axonframework.config.Configuration axon = node.bean(org.axonframework.config.Configuration.class);
        EventStorageEngine axons = JdbcEventStorageEngine.builder()
                .connectionProvider(node.bean(ConnectionProvider.class))
                .transactionManager(node.bean(org.axonframework.common.transaction.TransactionManager.class))
                .eventSerializer(axon.eventSerializer())
                .snapshotSerializer(axon.serializer())
                .schema(new EventSchema())
                .build();

        List<String> ours = tracked(node.bean(EventStorageEngine.class), before);
        assertThat(ours).hasSizeGreaterThanOrEqualTo(6).isEqualTo(tracked(axons, before));
        assertThat(ours.stream()
                        .filter(e -> e.contains("two-" + run))
                        .findFirst()
                        .orElseThrow())
                .as("the rolled-back append's index is a gap")
                .doesNotContain("gaps=[]");
    }

    /** Each event after {@code after}: its token (index and gaps), timestamp, identifier and payload. */
    private static List<String> tracked(EventStorageEngine events, long after) {
        try (Stream<? extends TrackedEventMessage<?>> stream =
                events.readEvents(GapAwareTrackingToken.newInstance(after, List.of()), false)) {
            return stream.map(e -> {
                        GapAwareTrackingToken token = (GapAwareTrackingToken) e.trackingToken();
                        return token.getIndex() + " gaps=" + token.getGaps() + " " + e.getTimestamp() + " "
                                + e.getIdentifier() + " " + e.getPayload();
                    })
                    .toList();
        }
    }

    private static List<TrackedEventMessage<?>> ours(EventStorageEngine events, long after, String run) {
        try (Stream<? extends TrackedEventMessage<?>> stream =
                events.readEvents(GapAwareTrackingToken.newInstance(after, List.of()), false)) {
            return stream.filter(e -> e.getPayload().toString().endsWith(run))
                    .<TrackedEventMessage<?>>map(e -> e)
                    .toList();
        }
    }
}
