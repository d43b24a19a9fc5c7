package io.axscheduler.query.history;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.Metadata;
import io.axscheduler.api.problem.NotFoundException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Reads an aggregate's stream straight from the event store — the audit must not depend on a projection — and
 * renders it as the history endpoints show it.
 */
@Component
public class EventStreams {

    static final String CORRELATION_ID = "correlationId";

    /** A schedule's events that change what it is, as opposed to its fire records. */
    public static final List<Class<?>> SCHEDULE_CONFIGURATION = List.of(
            io.axscheduler.api.schedule.ScheduleUpdated.class,
            io.axscheduler.api.schedule.SchedulePaused.class,
            io.axscheduler.api.schedule.ScheduleResumed.class,
            io.axscheduler.api.schedule.ScheduleDeleted.class);

    private final EventStore eventStore;
    private final ObjectMapper objectMapper;
    private final NamedParameterJdbcTemplate jdbc;

    public EventStreams(EventStore eventStore, ObjectMapper objectMapper, NamedParameterJdbcTemplate jdbc) {
        this.eventStore = eventStore;
        this.objectMapper = objectMapper;
        this.jdbc = jdbc;
    }

    /*
     * Pages are counted in events, not sequence numbers: the retention leaves gaps in a schedule's sequence numbers
     * (its old fire records), and the store's API reads from a sequence number only. These find where a page begins.
     */

    /** The sequence number of the stream's event {@code offset} (from 0, in order); null past its end. */
    public Long sequenceAt(String id, long offset) {
        List<Long> found = jdbc.queryForList(
                "SELECT sequenceNumber FROM DomainEventEntry WHERE aggregateIdentifier = :id"
                        + " ORDER BY sequenceNumber LIMIT 1 OFFSET :offset",
                Map.of("id", id, "offset", offset),
                Long.class);
        return found.isEmpty() ? null : found.get(0);
    }

    /** The sequence number of the oldest of the stream's {@code count} newest events up to {@code last}; null if none. */
    public Long oldestOfNewest(String id, long last, int count) {
        return jdbc.queryForObject(
                "SELECT MIN(sequenceNumber) FROM (SELECT sequenceNumber FROM DomainEventEntry"
                        + " WHERE aggregateIdentifier = :id AND sequenceNumber <= :last"
                        + " ORDER BY sequenceNumber DESC LIMIT :count) page",
                Map.of("id", id, "last", last, "count", count),
                Long.class);
    }

    /**
     * The sequence number of the stream's last event recorded at or before {@code at}, found by index dives (a binary
     * search over the sequence numbers, each probe one row), not by reading the stream; -1 when none is.
     */
    public long lastSequenceAtOrBefore(String id, java.time.Instant at) {
        Long max = jdbc.queryForObject(
                "SELECT MAX(sequenceNumber) FROM DomainEventEntry WHERE aggregateIdentifier = :id",
                Map.of("id", id),
                Long.class);
        if (max == null) return -1;
        // the usual question is about now: the newest event is then the answer, and no search is needed
        List<String> newest = jdbc.queryForList(
                "SELECT timeStamp FROM DomainEventEntry WHERE aggregateIdentifier = :id AND sequenceNumber = :max",
                Map.of("id", id, "max", max),
                String.class);
        if (!newest.isEmpty() && !java.time.Instant.parse(newest.get(0)).isAfter(at)) return max;
        long lo = 0, hi = max, found = -1;
        // invariant: every event before lo is at or before at (found is the last such seen); events after hi are later
        while (lo <= hi) {
            long mid = lo + (hi - lo) / 2;
            List<Map<String, Object>> probe = jdbc.queryForList(
                    "SELECT sequenceNumber, timeStamp FROM DomainEventEntry WHERE aggregateIdentifier = :id"
                            + " AND sequenceNumber >= :from ORDER BY sequenceNumber LIMIT 1",
                    Map.of("id", id, "from", mid));
            if (probe.isEmpty()) {
                hi = mid - 1;
                continue;
            }
            long seq = ((Number) probe.get(0).get("sequenceNumber")).longValue();
            java.time.Instant t =
                    java.time.Instant.parse(probe.get(0).get("timeStamp").toString());
            if (!t.isAfter(at)) {
                found = seq;
                lo = seq + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    /**
     * The stream's events of the given payload types before sequence number {@code before}, in order: picked out by
     * the database, so a schedule's configuration changes are read without its (many) fire records.
     */
    public List<DomainEventMessage<?>> readOfTypes(String id, java.util.Collection<Class<?>> types, long before) {
        List<Long> sequences = jdbc.queryForList(
                "SELECT sequenceNumber FROM DomainEventEntry WHERE aggregateIdentifier = :id"
                        + " AND sequenceNumber < :before AND payloadType IN (:types) ORDER BY sequenceNumber",
                Map.of(
                        "id",
                        id,
                        "before",
                        before,
                        "types",
                        types.stream().map(Class::getName).toList()),
                Long.class);
        List<DomainEventMessage<?>> events = new java.util.ArrayList<>();
        for (long sequence : sequences) {
            eventStore
                    .readEvents(id, sequence)
                    .asStream()
                    .findFirst()
                    .filter(e -> e.getSequenceNumber() == sequence)
                    .ifPresent(events::add);
        }
        return events;
    }

    /**
     * The whole stream of {@code id}, which must begin with {@code creation}: jobs and schedules share the store,
     * and a schedule's id is not a job. Unknown → 404 naming {@code kind}.
     */
    public List<DomainEventMessage<?>> read(String kind, String id, Class<?> creation) {
        // From sequence 0: readEvents(id) would start at the latest snapshot and hide the events before it.
        List<DomainEventMessage<?>> events = eventStore
                .readEvents(id, 0L)
                .asStream()
                .<DomainEventMessage<?>>map(event -> event)
                .toList();
        if (events.isEmpty() || !creation.isInstance(events.get(0).getPayload())) {
            throw new NotFoundException(kind, id);
        }
        return events;
    }

    /**
     * Up to {@code limit} events of the stream of {@code id} from sequence {@code from}, read lazily (the store reads
     * in batches, and stops once the limit is had). The stream must begin with {@code creation}, as in {@link #read}.
     */
    public List<DomainEventMessage<?>> readPage(String kind, String id, Class<?> creation, long from, int limit) {
        DomainEventMessage<?> first =
                eventStore.readEvents(id, 0L).asStream().findFirst().orElse(null);
        if (first == null || !creation.isInstance(first.getPayload())) throw new NotFoundException(kind, id);
        return eventStore
                .readEvents(id, from)
                .asStream()
                .limit(limit)
                .<DomainEventMessage<?>>map(event -> event)
                .toList();
    }

    public List<HistoryEvent> render(List<DomainEventMessage<?>> events) {
        return events.stream()
                .map(event -> new HistoryEvent(
                        event.getSequenceNumber(),
                        event.getPayloadType().getSimpleName(),
                        event.getTimestamp(),
                        objectMapper.valueToTree(event.getPayload()),
                        metadata(event)))
                .toList();
    }

    // The contract names actor, node and correlationId; they come first and are present even when an old event
    // lacks them, so clients can rely on the keys.
    private static Map<String, Object> metadata(DomainEventMessage<?> event) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put(Metadata.ACTOR, event.getMetaData().get(Metadata.ACTOR));
        metadata.put(Metadata.NODE, event.getMetaData().get(Metadata.NODE));
        metadata.put(CORRELATION_ID, event.getMetaData().get(CORRELATION_ID));
        event.getMetaData().forEach(metadata::putIfAbsent);
        return metadata;
    }
}
