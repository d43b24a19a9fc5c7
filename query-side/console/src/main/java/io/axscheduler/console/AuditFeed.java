package io.axscheduler.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The audit feed: the event store read backwards by its primary key (globalIndex), a window of
 * {@link #WINDOW} rows a query and at most {@link #MAX_WINDOWS} windows a page, so a page never reads more than
 * {@code WINDOW × MAX_WINDOWS} rows however rare its filter's matches are; the page then says where it stopped, and
 * the next page goes on from there. A time range becomes a range of globalIndex by a binary search over the key
 * (the store's order is its commit order, close to time order). Payloads are not read, only the columns shown.
 */
@Component
class AuditFeed {

    static final int WINDOW = 5_000;
    static final int MAX_WINDOWS = 20;
    static final int PAGE = 50;

    private final NamedParameterJdbcTemplate jdbc;
    private final ObjectMapper json;

    AuditFeed(NamedParameterJdbcTemplate jdbc, ObjectMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    record Entry(long index, String aggregateId, String kind, String type, Instant at, String actor, String node) {}

    /** A page, and the globalIndex to continue below (null: the start of the store or of the range was reached). */
    record Page(List<Entry> entries, Long before, long scannedFrom, long scannedTo) {}

    /** {@code namespaces}: the namespaces whose jobs' and schedules' events the page may show; null means all events. */
    Page page(String actor, String eventType, Set<String> namespaces, Instant from, Instant to, Long before) {
        if (namespaces != null && namespaces.isEmpty()) return new Page(List.of(), null, 0, 0);
        Long max = jdbc.queryForObject("SELECT MAX(globalIndex) FROM DomainEventEntry", Map.of(), Long.class);
        if (max == null) return new Page(List.of(), null, 0, 0);
        long hi = before == null ? max : Math.min(max, before - 1);
        if (to != null) hi = Math.min(hi, lastAtOrBefore(to, max));
        long lo = from == null ? 0 : firstAtOrAfter(from, max);
        List<Entry> entries = new ArrayList<>();
        long cursor = hi;
        for (int w = 0; w < MAX_WINDOWS && cursor >= lo && entries.size() < PAGE; w++) {
            long windowLo = Math.max(lo, cursor - WINDOW + 1);
            entries.addAll(window(windowLo, cursor, actor, eventType, namespaces, PAGE - entries.size()));
            cursor = entries.size() >= PAGE ? entries.get(entries.size() - 1).index() - 1 : windowLo - 1;
        }
        return new Page(entries, cursor >= lo && cursor > 0 ? cursor + 1 : null, cursor + 1, hi);
    }

    private List<Entry> window(long lo, long hi, String actor, String eventType, Set<String> namespaces, int limit) {
        StringBuilder sql = new StringBuilder("SELECT e.globalIndex, e.aggregateIdentifier, e.type, e.payloadType,"
                + " e.timeStamp, e.metaData FROM DomainEventEntry e WHERE e.globalIndex BETWEEN :lo AND :hi");
        MapSqlParameterSource p = new MapSqlParameterSource("lo", lo).addValue("hi", hi);
        if (namespaces != null) {
            // the events of jobs and schedules in those namespaces: one primary-key dive per row of the window;
            // events of nothing in a namespace (users, keys, alerts) are an admin's to see
            sql.append(" AND (EXISTS (SELECT 1 FROM job_queue j WHERE j.job_id = e.aggregateIdentifier"
                    + " AND j.namespace IN (:ns)) OR EXISTS (SELECT 1 FROM schedules s"
                    + " WHERE s.schedule_id = e.aggregateIdentifier AND s.namespace IN (:ns)))");
            p.addValue("ns", namespaces);
        }
        if (eventType != null) {
            sql.append(" AND e.payloadType LIKE :type ESCAPE '!'");
            p.addValue("type", "%." + escape(eventType));
        }
        if (actor != null) {
            // metadata is Jackson's compact JSON: the pair appears exactly so
            sql.append(" AND e.metaData LIKE :actor ESCAPE '!'");
            p.addValue("actor", "%\"actor\":" + escape(quote(actor)) + "%");
        }
        sql.append(" ORDER BY e.globalIndex DESC LIMIT :limit");
        p.addValue("limit", limit);
        return jdbc.query(sql.toString(), p, (rs, i) -> {
            JsonNode meta = metadata(rs.getBytes(6));
            String payloadType = rs.getString(4);
            return new Entry(
                    rs.getLong(1),
                    rs.getString(2),
                    kind(rs.getString(3)),
                    payloadType.substring(payloadType.lastIndexOf('.') + 1),
                    parse(rs.getString(5)),
                    meta.path("actor").asText(null),
                    meta.path("node").asText(null));
        });
    }

    private String quote(String s) {
        try {
            return json.writeValueAsString(s);
        } catch (IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private JsonNode metadata(byte[] raw) {
        if (raw == null) return json.createObjectNode();
        try {
            return json.readTree(raw);
        } catch (IOException e) {
            return json.createObjectNode();
        }
    }

    /** "job" or "schedule", which have pages of their own; "" for the rest (admin trails, alerts). */
    private static String kind(String aggregateType) {
        if ("Job".equals(aggregateType)) return "job";
        if ("Schedule".equals(aggregateType)) return "schedule";
        return "";
    }

    private static String escape(String s) {
        return s.replace("!", "!!").replace("%", "!%").replace("_", "!_");
    }

    /** The smallest globalIndex whose event is at or after {@code at} (max + 1 when none is). */
    private long firstAtOrAfter(Instant at, long max) {
        long lo = 0, hi = max + 1;
        while (lo < hi) {
            long mid = (lo + hi) >>> 1;
            Instant t = timeAtOrAfter(mid);
            if (t == null || !t.isBefore(at)) hi = mid;
            else lo = mid + 1;
        }
        return lo;
    }

    /** The largest globalIndex whose event is at or before {@code at} (-1 when none is). */
    private long lastAtOrBefore(Instant at, long max) {
        return firstAtOrAfter(at.plusMillis(1), max) - 1;
    }

    /** The time of the first event at or after index {@code i} (indexes have gaps), null past the end. */
    private Instant timeAtOrAfter(long i) {
        List<String> t = jdbc.queryForList(
                "SELECT timeStamp FROM DomainEventEntry WHERE globalIndex >= :i ORDER BY globalIndex LIMIT 1",
                Map.of("i", i),
                String.class);
        return t.isEmpty() ? null : parse(t.get(0));
    }

    private static Instant parse(String timestamp) {
        try {
            return Instant.parse(timestamp);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
