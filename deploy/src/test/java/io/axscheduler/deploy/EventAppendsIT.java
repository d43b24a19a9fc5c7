package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.axscheduler.axonmysql.eventstore.JdbcEventTable;
import io.axscheduler.axonmysql.messaging.MetaDataReader;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.axonframework.common.DateTimeUtils;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.messaging.MetaData;
import org.axonframework.modelling.command.ConcurrencyException;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.json.JacksonSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The node's event store appends a unit of work's events in multi-row INSERTs (of at most 100 rows and 1 MiB), with
 * what Axon's one-row INSERTs give: order, no index gaps, a duplicate as a concurrency failure, all or nothing; and
 * its timestamps are Axon's text, read back as Axon reads them.
 */
class EventAppendsIT {

    private static final Instant AT = Instant.parse("2026-12-01T10:00:00.123Z");

    static Node node;
    static EventStorageEngine engine;
    static TransactionTemplate transaction;

    @BeforeAll
    static void start() {
        // sessions that number auto-increment rows in steps of three, as a three-member Galera cluster's or a server
        // whose default was set so: the node's own sessions must still number events one by one
        node = Node.start(
                TestDatabase.freshDatabase("event_appends") + "?sessionVariables=auto_increment_increment=3",
                "node-a",
                Map.of("ax.scheduler.scan.enabled", "false"));
        engine = node.bean(EventStorageEngine.class);
        transaction = node.bean(TransactionTemplate.class);
    }

    @AfterAll
    static void stop() {
        node.close();
    }

    @Test
    void the_node_appends_through_multi_row_inserts_and_reads_metadata_with_one_lookup() throws Exception {
        assertThat(engine).isInstanceOf(JdbcEventTable.class);
        Serializer events =
                node.bean(org.axonframework.config.Configuration.class).eventSerializer();
        assertThat(metaDataDeserializerOf(((JacksonSerializer) events).getObjectMapper()))
                .isInstanceOf(MetaDataReader.class);
    }

    @Test
    void events_of_several_inserts_are_stored_in_order_without_index_gaps_and_read_back_whole() {
        List<DomainEventMessage<?>> events = new ArrayList<>();
        // 250 events, aggregates interleaved as a claim batch's are
        for (int seq = 0; seq < 125; seq++) {
            events.add(event("order-a", seq, ""));
            events.add(event("order-b", seq, ""));
        }

        long statements = insertsToAppend(events);

        assertThat(statements).as("INSERTs of 100, 100 and 50 rows").isEqualTo(3);
        List<Map<String, Object>> rows = node.jdbc()
                .queryForList("SELECT globalIndex, eventIdentifier FROM DomainEventEntry"
                        + " WHERE aggregateIdentifier IN ('order-a', 'order-b') ORDER BY globalIndex");
        assertThat(rows)
                .extracting(row -> row.get("eventIdentifier"))
                .containsExactlyElementsOf(
                        events.stream().map(DomainEventMessage::getIdentifier).toList());
        long first = ((Number) rows.get(0).get("globalIndex")).longValue();
        long last = ((Number) rows.get(rows.size() - 1).get("globalIndex")).longValue();
        assertThat(last - first + 1).as("global indexes without gaps").isEqualTo(250);
        List<? extends DomainEventMessage<?>> orderB =
                engine.readEvents("order-b").asStream().toList();
        assertThat(orderB).hasSize(125);
        assertThat(orderB.get(124).getSequenceNumber()).isEqualTo(124);
        assertThat(orderB.get(124).getPayload()).isEqualTo("order-b #124");
        assertThat(orderB.get(124).getMetaData()).containsEntry("node", "node-a");
        assertThat(orderB.get(124).getTimestamp()).isEqualTo(AT);
    }

    @Test
    void large_events_go_in_inserts_of_at_most_a_mebibyte() {
        List<DomainEventMessage<?>> events = new ArrayList<>();
        for (int seq = 0; seq < 10; seq++) events.add(event("large", seq, "x".repeat(300 * 1024)));

        long statements = insertsToAppend(events);

        assertThat(statements).as("three 300 KiB events an INSERT").isEqualTo(4);
        assertThat(engine.readEvents("large")
                        .asStream()
                        .map(e -> ((String) e.getPayload()).length())
                        .toList())
                .containsOnly(("large #0" + "x".repeat(300 * 1024)).length())
                .hasSize(10);
    }

    @Test
    void a_duplicate_in_a_later_insert_is_a_concurrency_failure_that_leaves_nothing_of_the_batch() {
        transaction.executeWithoutResult(tx -> engine.appendEvents(event("taken", 0, "")));
        List<DomainEventMessage<?>> batch = new ArrayList<>();
        for (int seq = 0; seq < 220; seq++) batch.add(event("fresh", seq, ""));
        // the 221st event is in the third INSERT; another node appended its aggregate's sequence 0 first
        batch.add(event("taken", 0, ""));

        assertThatThrownBy(() -> transaction.executeWithoutResult(tx -> engine.appendEvents(batch)))
                .isInstanceOf(ConcurrencyException.class);
        assertThatThrownBy(() -> engine.appendEvents(batch))
                .as("appended outside a transaction: it makes its own")
                .isInstanceOf(ConcurrencyException.class);

        assertThat(node.jdbc()
                        .queryForObject(
                                "SELECT COUNT(*) FROM DomainEventEntry WHERE aggregateIdentifier IN ('taken', 'fresh')",
                                Long.class))
                .as("the first two INSERTs of the failed batch rolled back with it")
                .isEqualTo(1);
    }

    @Test
    void timestamps_are_stored_as_axons_text_and_read_back_to_the_millisecond_by_every_reader() {
        Instant at = Instant.parse("2026-12-01T10:00:00.123456789Z");
        DomainEventMessage<?> timed = new GenericDomainEventMessage<>(
                "Order", "timed", 0, "timed #0", MetaData.emptyInstance(), "timed-0", at);
        transaction.executeWithoutResult(tx -> engine.appendEvents(timed));

        String stored = node.jdbc()
                .queryForObject(
                        "SELECT timeStamp FROM DomainEventEntry WHERE eventIdentifier = 'timed-0'", String.class);
        assertThat(stored).isEqualTo(DateTimeUtils.formatInstant(at)).isEqualTo("2026-12-01T10:00:00.123Z");
        Instant millisecond = Instant.parse("2026-12-01T10:00:00.123Z");
        assertThat(engine.readEvents("timed").next().getTimestamp())
                .as("the aggregate's stream")
                .isEqualTo(millisecond);
        assertThat(engine.readEvents(null, false)
                        .filter(e -> e.getIdentifier().equals("timed-0"))
                        .findFirst()
                        .orElseThrow()
                        .getTimestamp())
                .as("the tracked stream processors read")
                .isEqualTo(millisecond);
    }

    @Test
    void an_aggregates_stream_reads_past_gaps_in_its_sequence_numbers() {
        // what the retention leaves of a schedule: its creation, a gap of records deleted, its recent events
        List<DomainEventMessage<?>> events = new ArrayList<>();
        events.add(event("thinned", 0, ""));
        for (long seq = 1_000; seq < 1_250; seq++) events.add(event("thinned", seq, ""));
        events.add(event("thinned", 5_000, ""));
        transaction.executeWithoutResult(tx -> engine.appendEvents(events));

        List<Long> read = engine.readEvents("thinned", 0L)
                .asStream()
                .map(DomainEventMessage::getSequenceNumber)
                .toList();
        assertThat(read).hasSize(252).startsWith(0L, 1_000L).endsWith(1_249L, 5_000L);
        assertThat(engine.readEvents("thinned", 1_100L).asStream().count()).isEqualTo(151);
        assertThat(engine.lastSequenceNumberFor("thinned")).contains(5_000L);
    }

    /** Appends {@code events} in a transaction and answers how many INSERTs its connection ran for them. */
    private static long insertsToAppend(List<DomainEventMessage<?>> events) {
        return transaction.execute(tx -> {
            long before = insertsOfThisConnection();
            engine.appendEvents(events);
            return insertsOfThisConnection() - before;
        });
    }

    /** INSERTs run so far on the connection of the current transaction. */
    private static long insertsOfThisConnection() {
        return node.jdbc().queryForObject("SHOW SESSION STATUS LIKE 'Com_insert'", (rs, i) -> rs.getLong(2));
    }

    private static DomainEventMessage<?> event(String aggregate, long seq, String padding) {
        return new GenericDomainEventMessage<>(
                "Order",
                aggregate,
                seq,
                aggregate + " #" + seq + padding,
                MetaData.with("node", "node-a"),
                aggregate + "-" + seq,
                AT);
    }

    private static Object metaDataDeserializerOf(com.fasterxml.jackson.databind.ObjectMapper mapper) throws Exception {
        var context = ((com.fasterxml.jackson.databind.deser.DefaultDeserializationContext)
                        mapper.getDeserializationContext())
                .createInstance(mapper.getDeserializationConfig(), null, null);
        return context.findRootValueDeserializer(mapper.constructType(org.axonframework.messaging.MetaData.class));
    }
}
