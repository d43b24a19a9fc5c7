package io.axscheduler.query.alert;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.Namespaces;
import io.axscheduler.api.alert.AlertJobKeys;
import io.axscheduler.api.problem.InvalidRequestException;
import io.axscheduler.api.security.Access;
import io.axscheduler.api.security.Caller;
import io.axscheduler.api.security.Role;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Alerts and alert rules as a caller may see them: an admin all, anyone else the rules whose namespace filter names a
 * namespace the caller sees, and the alerts such a rule raised while it was narrowed to one. {@code GET /api/v1/alerts}
 * and the console read them here.
 */
@Component
public class AlertQueries {

    static final int MAX_SIZE = 500;
    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {};

    private final NamedParameterJdbcTemplate jdbc;
    private final ObjectMapper json;

    public AlertQueries(NamedParameterJdbcTemplate jdbc, ObjectMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /** The rules {@code caller} sees, by name: type, threshold, hold time, namespace, channels, where it comes from. */
    public List<Map<String, Object>> rules(Caller caller) {
        List<Map<String, Object>> rules = new ArrayList<>();
        jdbc.query(
                "SELECT name, type, filter_json, threshold, for_ms, channels, source FROM alert_rules ORDER BY name",
                Map.of(),
                rs -> {
                    try {
                        String namespace = json.readTree(rs.getString("filter_json"))
                                .path("namespace")
                                .asText(null);
                        if (!Access.seesAlertRule(caller, namespace)) return;
                        Map<String, Object> rule = new LinkedHashMap<>();
                        rule.put("name", rs.getString("name"));
                        rule.put("type", rs.getString("type"));
                        rule.put("namespace", namespace);
                        rule.put("threshold", rs.getLong("threshold"));
                        rule.put("forMs", rs.getLong("for_ms"));
                        rule.put("channels", channels(rs.getString("channels")));
                        rule.put("source", rs.getString("source"));
                        rules.add(rule);
                    } catch (JsonProcessingException e) {
                        throw new IllegalStateException("alert_rules holds unreadable JSON", e);
                    }
                });
        return rules;
    }

    /** The alert's details as raised (what the rule's condition found); null when none were kept. */
    private Object details(String text) {
        if (text == null) return null;
        try {
            return json.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("alerts holds unreadable JSON", e);
        }
    }

    /** The channels told of the raise; null for an alert recorded before they were kept. */
    private List<String> channels(String told) {
        if (told == null) return null;
        try {
            return json.readValue(told, STRINGS);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("alerts holds unreadable JSON", e);
        }
    }

    /**
     * The alerts, newest first: {@code state} FIRING, RESOLVED or null for both, {@code rule} one rule's or null,
     * at most {@code size} (1..{@value #MAX_SIZE}).
     */
    public Map<String, Object> list(String state, String rule, int size, Caller caller) {
        if (state != null && !state.equals("FIRING") && !state.equals("RESOLVED"))
            throw InvalidRequestException.of("state", "must be FIRING or RESOLVED");
        if (size < 1 || size > MAX_SIZE) throw InvalidRequestException.of("size", "must be 1.." + MAX_SIZE);
        Map<String, Object> params = new HashMap<>();
        StringBuilder where = new StringBuilder(" WHERE 1 = 1");
        if (state != null) {
            where.append(" AND state = :state");
            params.put("state", state);
            // a firing alert holds its open key, a resolved one none: the unique index on it reads the firing ones
            // alone instead of every resolved alert of the retention (the console asks on every refresh)
            if (state.equals("FIRING")) where.append(" AND open_key IS NOT NULL");
        }
        if (rule != null) {
            where.append(" AND rule = :rule");
            params.put("rule", rule);
        }
        Set<String> namespaces = caller.namespaces(Role.VIEWER);
        if (namespaces != null) {
            // not an admin: the alerts raised by rules narrowed to a namespace the caller sees, whatever the rule
            // names now (an alert names the jobs and errors of the namespace it was raised for)
            if (namespaces.isEmpty()) return Map.of("items", List.of());
            where.append(" AND namespace IN (:namespaces)");
            params.put("namespaces", namespaces);
        }
        params.put("size", size);
        List<Map<String, Object>> items = jdbc.query(
                "SELECT alert_id, rule, type, state, alert_key, message, details, notified, told, raised_at, resolved_at"
                        + " FROM alerts"
                        + where + " ORDER BY raised_at DESC, alert_id DESC LIMIT :size",
                params,
                (rs, i) -> {
                    Map<String, Object> item = new LinkedHashMap<>();
                    item.put("alertId", rs.getString("alert_id"));
                    item.put("rule", rs.getString("rule"));
                    item.put("type", rs.getString("type"));
                    item.put("state", rs.getString("state"));
                    item.put("key", rs.getString("alert_key"));
                    item.put("message", rs.getString("message"));
                    item.put("details", details(rs.getString("details")));
                    item.put("notified", rs.getInt("notified") == 1);
                    item.put("channels", channels(rs.getString("told")));
                    item.put("raisedAt", Instant.ofEpochMilli(rs.getLong("raised_at")));
                    long resolved = rs.getLong("resolved_at");
                    item.put("resolvedAt", rs.wasNull() ? null : Instant.ofEpochMilli(resolved));
                    return item;
                });
        addDeliveries(items);
        return Map.of("items", items);
    }

    /**
     * Each alert's {@code deliveries}: the {@code ax-alert} jobs that tell its channels of its raise and its resolve,
     * with their status, attempt and last error, so that a channel that cannot be reached shows on the alert itself (its
     * {@code notified} says only that the channels were to be told). None for a channel told directly while no node
     * scanned, or once the jobs were deleted with the retention. One read of the job keys' primary key for the page.
     */
    @SuppressWarnings("unchecked")
    private void addDeliveries(List<Map<String, Object>> items) {
        Map<String, Map<String, Object>> byKey = new LinkedHashMap<>();
        for (Map<String, Object> item : items) {
            List<String> told = (List<String>) item.get("channels");
            item.put("deliveries", new ArrayList<Map<String, Object>>());
            if (told == null) continue;
            for (String state : item.get("resolvedAt") == null ? List.of("FIRING") : List.of("FIRING", "RESOLVED"))
                for (String channel : told) {
                    Map<String, Object> delivery = new LinkedHashMap<>();
                    delivery.put("channel", channel);
                    delivery.put("state", state);
                    delivery.put("item", item);
                    byKey.put(AlertJobKeys.of((String) item.get("alertId"), state, channel), delivery);
                }
        }
        if (byKey.isEmpty()) return;
        jdbc.query(
                "SELECT k.job_key, q.job_id, q.status, q.attempt, q.last_error FROM job_keys k"
                        + " JOIN job_queue q ON q.job_id = k.job_id WHERE k.job_key IN (:keys) AND k.namespace = :ns",
                Map.of("keys", byKey.keySet(), "ns", Namespaces.SYSTEM),
                rs -> {
                    Map<String, Object> delivery =
                            byKey.get(new String(rs.getBytes("job_key"), java.nio.charset.StandardCharsets.UTF_8));
                    if (delivery == null) return;
                    delivery.put("jobId", rs.getString("job_id"));
                    delivery.put("status", rs.getString("status"));
                    delivery.put("attempt", rs.getInt("attempt"));
                    // a delivery that got through has no error to show, whatever its earlier tries met
                    delivery.put(
                            "lastError",
                            "SUCCEEDED".equals(rs.getString("status")) ? null : rs.getString("last_error"));
                });
        for (Map<String, Object> delivery : byKey.values()) {
            Map<String, Object> item = (Map<String, Object>) delivery.remove("item");
            if (delivery.containsKey("jobId")) ((List<Map<String, Object>>) item.get("deliveries")).add(delivery);
        }
    }
}
