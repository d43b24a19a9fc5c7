package io.axscheduler.deploy;

import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventsourcing.eventstore.jdbc.EventSchema;
import org.axonframework.eventsourcing.eventstore.jdbc.JdbcEventStorageEngine;
import org.axonframework.eventsourcing.eventstore.jdbc.statements.TimestampWriter;
import org.axonframework.serialization.SerializedObject;
import org.axonframework.serialization.Serializer;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Collections;
import java.util.List;

/**
 * Axon's JDBC event store, appending a unit of work's events as multi-row INSERTs of up to {@link #MAX_ROWS} rows
 * instead of one INSERT per event. A claim batch of 144 jobs appends 288 events: 3 statements instead of 288, and
 * W1 made 3.25 of its 6 statements per job on event rows. The rows, their columns and their order are Axon's, and
 * each statement's failure still passes through Axon's persistence exception handling, so a duplicate
 * (aggregate, sequence) is still the {@code ConcurrencyException} that the compare-and-set of claims relies on.
 * <p>
 * A multi-row INSERT is a "simple insert" to InnoDB: it takes exactly as many auto-increment values as it has rows,
 * so the global index gets no gaps from it (MariaDB Connector/J's bulk batches did: see application.yml).
 */
final class MultiRowEventAppends extends JdbcEventStorageEngine {

    /**
     * Rows per INSERT. A JobCreated row holds at most 64 KiB of job params and some hundred bytes else: 100 of them
     * stay well under MariaDB's default max_allowed_packet of 16 MiB (MySQL 8's is 64 MiB).
     */
    static final int MAX_ROWS = 100;
    private static final String ROW = "(?, ?, ?, ?, ?, ?, ?, ?, ?)";

    MultiRowEventAppends(JdbcEventStorageEngine.Builder builder) {
        super(builder.appendEvents(MultiRowEventAppends::insert));
    }

    @Override
    protected void appendEvents(List<? extends EventMessage<?>> events, Serializer serializer) {
        for (int from = 0; from < events.size(); from += MAX_ROWS) {
            super.appendEvents(events.subList(from, Math.min(events.size(), from + MAX_ROWS)), serializer);
        }
    }

    /** One INSERT of all {@code events}, their columns bound as Axon's single-row statement binds them. */
    private static PreparedStatement insert(Connection connection, EventSchema schema, Class<?> dataType,
                                            List<? extends EventMessage<?>> events, Serializer serializer,
                                            TimestampWriter timestamps) throws SQLException {
        PreparedStatement statement = connection.prepareStatement("INSERT INTO " + schema.domainEventTable()
                + " (" + schema.domainEventFields() + ") VALUES " + String.join(", ", Collections.nCopies(events.size(), ROW)));
        int column = 0;
        for (EventMessage<?> message : events) {
            DomainEventMessage<?> event = asDomainEvent(message);
            SerializedObject<?> payload = event.serializePayload(serializer, dataType);
            SerializedObject<?> metaData = event.serializeMetaData(serializer, dataType);
            statement.setString(++column, event.getIdentifier());
            statement.setString(++column, event.getAggregateIdentifier());
            statement.setLong(++column, event.getSequenceNumber());
            statement.setString(++column, event.getType());
            timestamps.writeTimestamp(statement, ++column, event.getTimestamp());
            statement.setString(++column, payload.getType().getName());
            statement.setString(++column, payload.getType().getRevision());
            statement.setObject(++column, payload.getData());
            statement.setObject(++column, metaData.getData());
        }
        statement.addBatch();
        return statement;
    }

    /** As Axon stores an event published outside an aggregate: without aggregate, at sequence 0. */
    private static DomainEventMessage<?> asDomainEvent(EventMessage<?> event) {
        return event instanceof DomainEventMessage<?> domainEvent ? domainEvent
                : new GenericDomainEventMessage<>(null, event.getIdentifier(), 0L, event, event::getTimestamp);
    }
}
