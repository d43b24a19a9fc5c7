package io.axscheduler.deploy.security;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.Metadata;
import io.axscheduler.api.admin.AdminTrails;
import io.axscheduler.api.problem.FieldError;
import io.axscheduler.api.problem.InvalidRequestException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/v1/admin/audit}: the admin trail (key, user, alert rule and rebuild events) read from the event store, newest
 * first, {@link #DEFAULT_LIMIT} (at most {@link #MAX_LIMIT}) a page, the next page below the cursor {@code next}.
 * The trail's streams share the aggregate-id prefix {@code admin:}, so the read is a range of the event store's
 * unique (aggregateIdentifier, sequenceNumber) key, not a scan of every job's events.
 */
@RestController
class AdminAudit {

    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 500;

    private final NamedParameterJdbcTemplate jdbc;
    private final ObjectMapper json;

    AdminAudit(NamedParameterJdbcTemplate jdbc, ObjectMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    @GetMapping("/api/v1/admin/audit")
    Map<String, Object> audit(
            @RequestParam(name = "before", required = false) String before,
            @RequestParam(name = "limit", required = false) String limit) {
        List<FieldError> errors = new ArrayList<>();
        Long beforeIndex = null;
        if (before != null) {
            try {
                beforeIndex = Long.parseLong(before.trim());
                if (beforeIndex < 1) errors.add(new FieldError("before", "must be a positive event index"));
            } catch (NumberFormatException e) {
                errors.add(new FieldError("before", "must be an event index (the 'next' of the previous page)"));
            }
        }
        int size = DEFAULT_LIMIT;
        if (limit != null) {
            try {
                size = Integer.parseInt(limit.trim());
                if (size < 1 || size > MAX_LIMIT) errors.add(new FieldError("limit", "must be 1 to " + MAX_LIMIT));
            } catch (NumberFormatException e) {
                errors.add(new FieldError("limit", "must be 1 to " + MAX_LIMIT));
            }
        }
        if (!errors.isEmpty()) throw new InvalidRequestException(errors);
        MapSqlParameterSource p = new MapSqlParameterSource("prefix", AdminTrails.PREFIX + "%")
                .addValue("type", AdminTrails.TYPE)
                .addValue("limit", size + 1);
        StringBuilder sql =
                new StringBuilder("SELECT globalIndex, payloadType, timeStamp, metaData, payload FROM DomainEventEntry"
                        + " WHERE aggregateIdentifier LIKE :prefix AND type = :type");
        if (beforeIndex != null) {
            sql.append(" AND globalIndex < :before");
            p.addValue("before", beforeIndex);
        }
        sql.append(" ORDER BY globalIndex DESC LIMIT :limit");
        List<Map<String, Object>> events = jdbc.query(sql.toString(), p, (rs, i) -> {
            JsonNode meta = tree(rs.getBytes(4));
            String payloadType = rs.getString(2);
            Map<String, Object> event = new LinkedHashMap<>();
            event.put("index", rs.getLong(1));
            event.put("type", payloadType.substring(payloadType.lastIndexOf('.') + 1));
            event.put("at", rs.getString(3));
            event.put(Metadata.ACTOR, meta.path(Metadata.ACTOR).asText(null));
            event.put(Metadata.ON_BEHALF_OF, meta.path(Metadata.ON_BEHALF_OF).asText(null));
            event.put(Metadata.NODE, meta.path(Metadata.NODE).asText(null));
            event.put("payload", tree(rs.getBytes(5)));
            return event;
        });
        Object next = null;
        if (events.size() > size) {
            events = events.subList(0, size);
            next = events.get(size - 1).get("index");
        }
        Map<String, Object> page = new LinkedHashMap<>();
        page.put("events", events);
        page.put("next", next);
        return page;
    }

    private JsonNode tree(byte[] raw) {
        if (raw == null) return json.createObjectNode();
        try {
            return json.readTree(raw);
        } catch (IOException e) {
            return json.createObjectNode();
        }
    }
}
