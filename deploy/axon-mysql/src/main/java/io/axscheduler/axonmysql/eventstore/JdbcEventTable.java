package io.axscheduler.axonmysql.eventstore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Collections;
import java.util.List;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.EventUtils;
import org.axonframework.eventsourcing.eventstore.jdbc.EventSchema;
import org.axonframework.eventsourcing.eventstore.jdbc.JdbcEventStorageEngine;
import org.axonframework.eventsourcing.eventstore.jdbc.statements.TimestampWriter;
import org.axonframework.serialization.SerializedObject;
import org.axonframework.serialization.Serializer;

/**
 * Axon's JDBC event store over its DomainEventEntry table, appending a unit of work's events as multi-row INSERTs
 * instead of one INSERT per event. The rows, their columns and their order are Axon's, and each statement's failure still passes
 * through Axon's persistence exception handling, so a duplicate (aggregate, sequence) is still the
 * {@code ConcurrencyException} that the compare-and-set of claims relies on. All statements of one append run in one
 * transaction: a failed one leaves nothing of the batch.
 * <p>
 * A multi-row INSERT is a "simple insert" to InnoDB: it takes exactly as many auto-increment values as it has rows,
 * so the global index gets no gaps from it (MariaDB Connector/J's bulk batches did: see application.yml).
 */
public final class JdbcEventTable extends JdbcEventStorageEngine {

    /** Rows per INSERT at most. */
    static final int MAX_ROWS = 100;
    /**
     * Serialized payload and metadata bytes per INSERT at most (one larger row goes alone): far below MariaDB's default
     * max_allowed_packet of 16 MiB (MySQL 8's is 64 MiB), even with the driver's escaping doubling every byte.
     */
    static final int MAX_BYTES = 1 << 20;

    private static final String ROW = "(?, ?, ?, ?, ?, ?, ?, ?, ?)";

    private final TransactionManager transactions;
    private final boolean multiRowAppends;

    /**
     * {@code transactions} becomes the store's own transaction manager, and holds all INSERTs of one append together
     * when the caller has no transaction open. With {@code multiRowAppends} off it appends as Axon does, one row per
     * INSERT.
     */
    public JdbcEventTable(
            JdbcEventStorageEngine.Builder builder, TransactionManager transactions, boolean multiRowAppends) {
        super(withAppends(builder, multiRowAppends).transactionManager(transactions));
        this.transactions = transactions;
        this.multiRowAppends = multiRowAppends;
    }

    private static JdbcEventStorageEngine.Builder withAppends(
            JdbcEventStorageEngine.Builder builder, boolean multiRow) {
        return multiRow ? builder.appendEvents(JdbcEventTable::insert) : builder;
    }

    @Override
    protected void appendEvents(List<? extends EventMessage<?>> events, Serializer serializer) {
        if (!multiRowAppends) {
            super.appendEvents(events, serializer);
            return;
        }
        transactions.executeInTransaction(() -> {
            for (int from = 0, to; from < events.size(); from = to) {
                to = endOfInsert(events, from, serializer);
                super.appendEvents(events.subList(from, to), serializer);
            }
        });
    }

    /** Where the INSERT that begins at {@code from} ends (exclusive): at {@link #MAX_ROWS} rows or {@link #MAX_BYTES}. */
    private static int endOfInsert(List<? extends EventMessage<?>> events, int from, Serializer serializer) {
        long bytes = bytesOf(events.get(from), serializer);
        int to = from + 1;
        while (to < events.size() && to - from < MAX_ROWS) {
            bytes += bytesOf(events.get(to), serializer);
            if (bytes > MAX_BYTES) break;
            to++;
        }
        return to;
    }

    /**
     * The event's serialized payload and metadata in the store's representation (byte[], the builder's default); the
     * message keeps what it serialized, so {@link #insert} does not serialize it again.
     */
    private static long bytesOf(EventMessage<?> event, Serializer serializer) {
        return ((byte[]) event.serializePayload(serializer, byte[].class).getData()).length
                + ((byte[]) event.serializeMetaData(serializer, byte[].class).getData()).length;
    }

    /**
     * One INSERT of all {@code events}, their columns bound as Axon's single-row statement binds them. Axon runs the
     * statement with {@code executeBatch}: it is one batch entry.
     */
    private static PreparedStatement insert(
            Connection connection,
            EventSchema schema,
            Class<?> dataType,
            List<? extends EventMessage<?>> events,
            Serializer serializer,
            TimestampWriter timestamps)
            throws SQLException {
        PreparedStatement statement = connection.prepareStatement(
                "INSERT INTO " + schema.domainEventTable() + " (" + schema.domainEventFields() + ") VALUES "
                        + String.join(", ", Collections.nCopies(events.size(), ROW)));
        int column = 0;
        for (EventMessage<?> message : events) {
            DomainEventMessage<?> event = EventUtils.asDomainEventMessage(message);
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
}
