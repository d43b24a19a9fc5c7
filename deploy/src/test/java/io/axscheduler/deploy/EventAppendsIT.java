package io.axscheduler.deploy;

import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.messaging.MetaData;
import org.axonframework.modelling.command.ConcurrencyException;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The node's event store appends a unit of work's events in multi-row INSERTs, as Axon's one-row ones would. */
class EventAppendsIT {

    private static final Instant AT = Instant.parse("2026-12-01T10:00:00.123Z");

    @Test
    void events_of_several_inserts_are_stored_in_order_without_index_gaps_and_read_back_whole() {
        try (Node node = Node.start(TestDatabase.freshDatabase("event_appends"), "node-a", Map.of("ax.scheduler.scan.enabled", "false"))) {
            EventStorageEngine engine = node.bean(EventStorageEngine.class);
            TransactionTemplate transaction = node.bean(TransactionTemplate.class);
            List<DomainEventMessage<?>> events = new ArrayList<>();
            // 250 events: three statements (100, 100, 50 rows), aggregates interleaved as a claim batch's are
            for (int seq = 0; seq < 125; seq++) {
                events.add(event("job-a", seq));
                events.add(event("job-b", seq));
            }

            transaction.executeWithoutResult(tx -> engine.appendEvents(events));

            List<Map<String, Object>> rows = node.jdbc().queryForList(
                    "SELECT globalIndex, eventIdentifier FROM DomainEventEntry ORDER BY globalIndex");
            assertThat(rows).extracting(row -> row.get("eventIdentifier"))
                    .containsExactlyElementsOf(events.stream().map(DomainEventMessage::getIdentifier).toList());
            long first = ((Number) rows.get(0).get("globalIndex")).longValue();
            long last = ((Number) rows.get(rows.size() - 1).get("globalIndex")).longValue();
            assertThat(last - first + 1).as("global indexes without gaps").isEqualTo(250);

            List<? extends DomainEventMessage<?>> jobB = engine.readEvents("job-b").asStream().toList();
            assertThat(jobB).hasSize(125);
            assertThat(jobB.get(124).getSequenceNumber()).isEqualTo(124);
            assertThat(jobB.get(124).getPayload()).isEqualTo("job-b #124");
            assertThat(jobB.get(124).getMetaData()).containsEntry("node", "node-a");
            assertThat(jobB.get(124).getTimestamp()).isEqualTo(AT);
        }
    }

    @Test
    void a_duplicate_in_a_later_insert_is_a_concurrency_failure_that_leaves_nothing_of_the_batch() {
        try (Node node = Node.start(TestDatabase.freshDatabase("event_appends_dup"), "node-a", Map.of("ax.scheduler.scan.enabled", "false"))) {
            EventStorageEngine engine = node.bean(EventStorageEngine.class);
            TransactionTemplate transaction = node.bean(TransactionTemplate.class);
            transaction.executeWithoutResult(tx -> engine.appendEvents(event("job-a", 0)));
            List<DomainEventMessage<?>> batch = new ArrayList<>();
            for (int seq = 0; seq < 220; seq++) batch.add(event("job-b", seq));
            // the 221st event is in the third INSERT; another node appended job-a's sequence 0 first
            batch.add(event("job-a", 0));

            assertThatThrownBy(() -> transaction.executeWithoutResult(tx -> engine.appendEvents(batch)))
                    .isInstanceOf(ConcurrencyException.class);

            assertThat(node.jdbc().queryForObject("SELECT COUNT(*) FROM DomainEventEntry", Long.class))
                    .as("the first two INSERTs of the failed batch rolled back with it").isEqualTo(1);
        }
    }

    private static DomainEventMessage<?> event(String aggregate, long seq) {
        return new GenericDomainEventMessage<>("Job", aggregate, seq, aggregate + " #" + seq, MetaData.with("node", "node-a"),
                aggregate + "-" + seq, AT);
    }
}
