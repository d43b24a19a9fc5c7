package io.axscheduler.query.alert;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/v1/alerts}: firing and resolved alerts, newest first. */
@RestController
@RequestMapping("/api/v1/alerts")
public class AlertQueryController {

    static final int MAX_SIZE = 500;
    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {};

    private final NamedParameterJdbcTemplate jdbc;
    private final ObjectMapper json;

    public AlertQueryController(NamedParameterJdbcTemplate jdbc, ObjectMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /** The rules {@code caller} sees ({@code filter.namespace}); at most a few hundred rules exist. */
    private List<String> visibleRules(Caller caller) {
        List<String> names = new ArrayList<>();
        jdbc.query("SELECT name, filter_json FROM alert_rules", Map.of(), rs -> {
            try {
                String namespace =
                        json.readTree(rs.getString(2)).path("namespace").asText(null);
                if (Access.seesAlertRule(caller, namespace)) names.add(rs.getString(1));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("alert_rules holds unreadable JSON", e);
            }
        });
        return names;
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

    @GetMapping
    public Map<String, Object> list(
            @RequestParam(name = "state", required = false) String state,
            @RequestParam(name = "rule", required = false) String rule,
            @RequestParam(name = "size", defaultValue = "100") int size,
            @RequestAttribute(Caller.ATTRIBUTE) Caller caller) {
        if (state != null && !state.equals("FIRING") && !state.equals("RESOLVED"))
            throw InvalidRequestException.of("state", "must be FIRING or RESOLVED");
        if (size < 1 || size > MAX_SIZE) throw InvalidRequestException.of("size", "must be 1.." + MAX_SIZE);
        Map<String, Object> params = new HashMap<>();
        StringBuilder where = new StringBuilder(" WHERE 1 = 1");
        if (state != null) {
            where.append(" AND state = :state");
            params.put("state", state);
            // a firing alert holds its open key, a resolved one none: the unique index on it reads the firing ones
            // alone instead of every alert ever raised (the table is kept for good; the console asks on every refresh)
            if (state.equals("FIRING")) where.append(" AND open_key IS NOT NULL");
        }
        if (rule != null) {
            where.append(" AND rule = :rule");
            params.put("rule", rule);
        }
        if (caller.namespaces(Role.VIEWER) != null) {
            // not an admin: the alerts of the rules the caller sees, no others
            List<String> rules = visibleRules(caller);
            if (rules.isEmpty()) return Map.of("items", List.of());
            where.append(" AND rule IN (:visibleRules)");
            params.put("visibleRules", rules);
        }
        params.put("size", size);
        List<Map<String, Object>> items = jdbc.query(
                "SELECT alert_id, rule, type, state, alert_key, message, notified, told, raised_at, resolved_at FROM alerts"
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
                    item.put("notified", rs.getInt("notified") == 1);
                    item.put("channels", channels(rs.getString("told")));
                    item.put("raisedAt", Instant.ofEpochMilli(rs.getLong("raised_at")));
                    long resolved = rs.getLong("resolved_at");
                    item.put("resolvedAt", rs.wasNull() ? null : Instant.ofEpochMilli(resolved));
                    return item;
                });
        return Map.of("items", items);
    }
}
