package io.axscheduler.axonmysql.eventstore;

import io.axscheduler.api.IsoInstants;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.axonframework.common.DateTimeUtils;
import org.axonframework.common.jdbc.JdbcUtils;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.eventhandling.DomainEventData;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.EventUtils;
import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.axonframework.eventhandling.GenericDomainEventEntry;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.eventhandling.TrackedDomainEventData;
import org.axonframework.eventhandling.TrackedEventData;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventsourcing.eventstore.EventStoreException;
import org.axonframework.eventsourcing.eventstore.jdbc.EventSchema;
import org.axonframework.eventsourcing.eventstore.jdbc.JdbcEventStorageEngine;
import org.axonframework.eventsourcing.eventstore.jdbc.statements.TimestampWriter;
import org.axonframework.serialization.SerializedObject;
import org.axonframework.serialization.Serializer;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Axon's JDBC event store over its DomainEventEntry table, appending a unit of work's events as multi-row INSERTs
 * instead of one INSERT per event. The rows, their columns and their order are Axon's, and each statement's failure still passes
 * through Axon's persistence exception handling, so a duplicate (aggregate, sequence) is still the
 * {@code ConcurrencyException} that the compare-and-set of claims relies on. All statements of one append run in one
 * transaction: a failed one leaves nothing of the batch.
 * <p>
 * A multi-row INSERT is a "simple insert" to InnoDB: it takes exactly as many auto-increment values as it has rows,
 * so the global index gets no gaps from it (MariaDB Connector/J's bulk batches did: see application.yml).
 * <p>
 * With {@code readerBelowOwnAppends}, the tracking reader does not read past an index that one of this node's appends
 * holds while its transaction is open ({@link OwnAppendsInFlight}): it reads those events once they commit, instead of
 * recording the indexes as gaps that every later token copies. A read that would pass one stops below it.
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

    /*
     * The tracking reader's gap settings (Axon's defaults), set on the builder by the constructor, whatever the caller's
     * builder held: getTrackedEventData computes tokens itself and must use the values the engine uses.
     */
    static final long LOWEST_GLOBAL_SEQUENCE = 1;
    static final int MAX_GAP_OFFSET = 10_000;
    static final int GAP_TIMEOUT_MS = 60_000;

    /**
     * How long an open append holds the reader back at most: far longer than the node's longest transactions (a batch
     * of 1,000 schedules), short enough that a completion never reported delays the saga only briefly.
     */
    static final long STALE_APPEND_MS = 5_000;

    /** The first indexes the INSERTs of the current thread's append took, while it appends. */
    private static final ThreadLocal<List<Long>> APPENDING = new ThreadLocal<>();

    private final TransactionManager transactions;
    private final boolean multiRowAppends;
    /** null when the reader reads as Axon's does. */
    private final OwnAppendsInFlight inFlight;

    /**
     * {@code transactions} becomes the store's own transaction manager, and holds all INSERTs of one append together
     * when the caller has no transaction open. With {@code multiRowAppends} off it appends as Axon does, one row per
     * INSERT. {@code readerBelowOwnAppends} (which needs {@code multiRowAppends}) keeps the reader below this node's
     * open appends.
     */
    public JdbcEventTable(
            JdbcEventStorageEngine.Builder builder,
            TransactionManager transactions,
            boolean multiRowAppends,
            boolean readerBelowOwnAppends) {
        this(
                builder,
                transactions,
                multiRowAppends,
                multiRowAppends && readerBelowOwnAppends
                        ? new OwnAppendsInFlight(STALE_APPEND_MS, System::nanoTime)
                        : null);
    }

    private JdbcEventTable(
            JdbcEventStorageEngine.Builder builder,
            TransactionManager transactions,
            boolean multiRowAppends,
            OwnAppendsInFlight inFlight) {
        super(withAppends(builder, multiRowAppends, inFlight)
                .transactionManager(transactions)
                .lowestGlobalSequence(LOWEST_GLOBAL_SEQUENCE)
                .maxGapOffset(MAX_GAP_OFFSET)
                .gapTimeout(GAP_TIMEOUT_MS));
        this.transactions = transactions;
        this.multiRowAppends = multiRowAppends;
        this.inFlight = inFlight;
    }

    private static JdbcEventStorageEngine.Builder withAppends(
            JdbcEventStorageEngine.Builder builder, boolean multiRow, OwnAppendsInFlight inFlight) {
        return multiRow
                ? builder.appendEvents((connection, schema, dataType, events, serializer, timestamps) ->
                        insert(connection, schema, dataType, events, serializer, timestamps, inFlight))
                : builder;
    }

    /**
     * Axon's reading of a tracked event, with the event's timestamp parsed once: Axon's entry keeps the column's text
     * and parses it with {@code ISO_OFFSET_DATE_TIME} on every {@code getTimestamp()}, once here for the token's gap
     * window and again in each processor that asks (docs/benchmark.md has what that cost). The columns and the token
     * are as in {@link JdbcEventStorageEngine#getTrackedEventData}, with the gap settings above; {@code EventReaderIT}
     * compares the two readings.
     */
    @Override
    protected TrackedEventData<?> getTrackedEventData(ResultSet resultSet, GapAwareTrackingToken previousToken)
            throws SQLException {
        EventSchema schema = schema();
        long globalSequence = resultSet.getLong(schema.globalIndexColumn());
        String aggregateIdentifier = resultSet.getString(schema.aggregateIdentifierColumn());
        String eventIdentifier = resultSet.getString(schema.eventIdentifierColumn());
        StoredEventEntry<?> event = new StoredEventEntry<>(
                resultSet.getString(schema.typeColumn()),
                eventIdentifier.equals(aggregateIdentifier) ? null : aggregateIdentifier,
                resultSet.getLong(schema.sequenceNumberColumn()),
                eventIdentifier,
                readTimeStamp(resultSet, schema.timestampColumn()),
                resultSet.getString(schema.payloadTypeColumn()),
                resultSet.getString(schema.payloadRevisionColumn()),
                readPayload(resultSet, schema.payloadColumn()),
                readPayload(resultSet, schema.metaDataColumn()));
        boolean allowGaps = event.getTimestamp()
                .isAfter(GenericEventMessage.clock.instant().minus(GAP_TIMEOUT_MS, ChronoUnit.MILLIS));
        GapAwareTrackingToken token;
        if (previousToken == null) {
            token = GapAwareTrackingToken.newInstance(
                    globalSequence,
                    allowGaps
                            ? LongStream.range(Math.min(LOWEST_GLOBAL_SEQUENCE, globalSequence), globalSequence)
                                    .boxed()
                                    .collect(Collectors.toCollection(TreeSet::new))
                            : Collections.emptySortedSet());
        } else {
            token = previousToken.advanceTo(globalSequence, allowGaps ? MAX_GAP_OFFSET : 0);
        }
        return new TrackedDomainEventData<>(token, event);
    }

    /** A stored event whose timestamp is parsed once, the node's own form by {@link IsoInstants}. */
    static final class StoredEventEntry<T> extends GenericDomainEventEntry<T> {

        private final Instant timestamp;

        StoredEventEntry(
                String type,
                String aggregateIdentifier,
                long sequenceNumber,
                String eventIdentifier,
                Object timestamp,
                String payloadType,
                String payloadRevision,
                T payload,
                T metaData) {
            super(
                    type,
                    aggregateIdentifier,
                    sequenceNumber,
                    eventIdentifier,
                    timestamp,
                    payloadType,
                    payloadRevision,
                    payload,
                    metaData);
            this.timestamp = parse(timestamp.toString());
        }

        /** As Axon's {@code DateTimeUtils.parseInstant} answers, which reads whatever the short way does not. */
        static Instant parse(String text) {
            try {
                return IsoInstants.parse(text);
            } catch (DateTimeParseException e) {
                return DateTimeUtils.parseInstant(text);
            }
        }

        @Override
        public Instant getTimestamp() {
            return timestamp;
        }
    }

    @Override
    protected void appendEvents(List<? extends EventMessage<?>> events, Serializer serializer) {
        if (!multiRowAppends) {
            super.appendEvents(events, serializer);
            return;
        }
        if (inFlight == null) {
            transactions.executeInTransaction(() -> insertAll(events, serializer));
            return;
        }
        // in the caller's transaction the indexes are held until it ends; otherwise the append's own transaction has
        // ended when executeInTransaction returns
        List<Long> began = new ArrayList<>(1);
        boolean callersTransaction = TransactionSynchronizationManager.isSynchronizationActive();
        if (callersTransaction) TransactionSynchronizationManager.registerSynchronization(releasing(began));
        APPENDING.set(began);
        try {
            transactions.executeInTransaction(() -> insertAll(events, serializer));
        } finally {
            APPENDING.remove();
            if (!callersTransaction) began.forEach(inFlight::ended);
        }
    }

    private void insertAll(List<? extends EventMessage<?>> events, Serializer serializer) {
        for (int from = 0, to; from < events.size(); from = to) {
            to = endOfInsert(events, from, serializer);
            super.appendEvents(events.subList(from, to), serializer);
        }
    }

    /** Releases the indexes {@code began} as the transaction ends, after a commit before the reader's wake. */
    private TransactionSynchronization releasing(List<Long> began) {
        return new TransactionSynchronization() {
            // runs before the reader's wake, registered later (at the unit of work's commit), which then reads them
            @Override
            public void afterCommit() {
                began.forEach(inFlight::ended);
            }

            @Override
            public void afterCompletion(int status) {
                began.forEach(inFlight::ended);
            }
        };
    }

    /** Axon's text for the timestamp column ({@code yyyy-MM-ddTHH:mm:ss.SSSZ}), without its formatter's cost. */
    @Override
    protected void writeTimestamp(PreparedStatement statement, int position, Instant timestamp) throws SQLException {
        statement.setString(position, IsoInstants.millis(timestamp));
    }

    /**
     * An aggregate's events from {@code firstSequenceNumber} on, read past any gap in its sequence numbers. Axon's
     * reads the window {@code [first, first + batchSize)} and ends the stream at the first window with no event in it,
     * so a stream the retention thinned (a schedule's old fire records deleted, see {@code PruneScheduleFires}) would
     * end at its first gap of a batch or more: a replay would miss every later event, and a command decided on that
     * would append inside the gap, where no unique key refuses it. An empty window is followed by a look for the next
     * sequence number, one probe of the unique key; every read of a stream ends with an empty window, so a load from the
     * store costs that one query more, found or not. Axon's window query stays as it is, which
     * MariaDB runs as a range of the unique key (a query by {@code >= ? … LIMIT} was read as a scan of the aggregate's
     * index entries from its first, seven times slower to replay 200,000 events).
     */
    @Override
    protected List<? extends DomainEventData<?>> fetchDomainEvents(
            String identifier, long firstSequenceNumber, int batchSize) {
        List<? extends DomainEventData<?>> window = super.fetchDomainEvents(identifier, firstSequenceNumber, batchSize);
        if (!window.isEmpty()) return window;
        Long next = transactions.fetchInTransaction(() -> nextSequenceNumber(identifier, firstSequenceNumber));
        return next == null ? window : super.fetchDomainEvents(identifier, next, batchSize);
    }

    /** The aggregate's lowest sequence number from {@code from} on; null when it has none. */
    private Long nextSequenceNumber(String identifier, long from) {
        EventSchema schema = schema();
        return JdbcUtils.executeQuery(
                getConnection(),
                connection -> {
                    PreparedStatement statement = connection.prepareStatement("SELECT MIN("
                            + schema.sequenceNumberColumn() + ") FROM " + schema.domainEventTable() + " WHERE "
                            + schema.aggregateIdentifierColumn() + " = ? AND " + schema.sequenceNumberColumn()
                            + " >= ?");
                    statement.setString(1, identifier);
                    statement.setLong(2, from);
                    return statement;
                },
                results -> results.next() ? results.getObject(1, Long.class) : null,
                e -> new EventStoreException("could not read the next event of aggregate " + identifier, e));
    }

    /** Axon's read, stopped below the lowest index an open append of this node holds. */
    @Override
    protected PreparedStatement readEventData(Connection connection, TrackingToken lastToken, int batchSize)
            throws SQLException {
        if (inFlight == null || !(lastToken instanceof GapAwareTrackingToken token))
            return super.readEventData(connection, lastToken, batchSize);
        long lowest = inFlight.lowest();
        long index = token.getIndex();
        // an index at or below the token's was read past before it was held (between its INSERT and the hold): it is
        // a gap of the token already, and holding the reader back for it would only stall it
        if (lowest <= index || lowest > index + batchSize) return super.readEventData(connection, lastToken, batchSize);
        return super.readEventData(connection, lastToken, (int) (lowest - 1 - index));
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
            TimestampWriter timestamps,
            OwnAppendsInFlight inFlight)
            throws SQLException {
        String sql = "INSERT INTO " + schema.domainEventTable() + " (" + schema.domainEventFields() + ") VALUES "
                + String.join(", ", Collections.nCopies(events.size(), ROW));
        PreparedStatement statement = inFlight == null
                ? connection.prepareStatement(sql)
                : connection.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS);
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
        return inFlight == null ? statement : heldOnceRun(statement, inFlight);
    }

    /**
     * The statement, which once Axon has run it holds its first index in {@code inFlight} (and in the current append's
     * list, which releases it when the transaction ends). The driver answers the first auto-increment value of a
     * multi-row INSERT with the statement's result: no further round trip.
     */
    private static PreparedStatement heldOnceRun(PreparedStatement statement, OwnAppendsInFlight inFlight) {
        return (PreparedStatement) Proxy.newProxyInstance(
                JdbcEventTable.class.getClassLoader(),
                new Class<?>[] {PreparedStatement.class},
                (proxy, method, args) -> {
                    Object result;
                    try {
                        result = method.invoke(statement, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    List<Long> began = APPENDING.get();
                    if (began != null && method.getName().equals("executeBatch")) {
                        try (ResultSet keys = statement.getGeneratedKeys()) {
                            if (keys.next()) {
                                long first = keys.getLong(1);
                                inFlight.began(first);
                                began.add(first);
                            }
                        }
                    }
                    return result;
                });
    }
}
