package io.axscheduler.scheduler.alert;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.Namespaces;
import io.axscheduler.api.admin.AlertRuleChange;
import io.axscheduler.api.admin.RecordAlertRuleChange;
import io.axscheduler.api.alert.AlertType;
import io.axscheduler.api.problem.AlreadyExistsException;
import io.axscheduler.api.problem.FieldError;
import io.axscheduler.api.problem.InvalidRequestException;
import io.axscheduler.api.problem.NotFoundException;
import io.axscheduler.api.security.Caller;
import io.axscheduler.api.worker.RegisterWorker;
import io.axscheduler.scheduler.DatabaseTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The alert rules, kept in {@code alert_rules} so every node evaluates the same ones: the rules of the properties are
 * written there as each node starts (theirs win over an API rule of the same name), the API adds, changes and removes
 * the others, each change an event of the admin trail with its actor (the properties' rules are the configuration's,
 * not recorded). Every rule is checked before it is stored: a known type, named channels, bounded names and numbers.
 */
@Component
public class AlertRules {

    static final int MAX_RULES = 200;
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(AlertRules.class);
    static final int MAX_NAME = 100;
    static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.:-]{1,100}");
    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {};
    private static final TypeReference<Map<String, Object>> STORED = new TypeReference<>() {};

    private final NamedParameterJdbcTemplate jdbc;
    private final AlertProperties properties;
    private final ObjectMapper json;
    private final CommandGateway commands;
    private final TransactionTemplate transaction;

    public AlertRules(
            NamedParameterJdbcTemplate jdbc,
            AlertProperties properties,
            ObjectMapper json,
            CommandGateway commands,
            PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.properties = properties;
        this.json = json;
        this.commands = commands;
        this.transaction = new TransactionTemplate(transactions);
    }

    @EventListener(ApplicationReadyEvent.class)
    public void writePropertyRules() {
        for (int i = 0; i < properties.rules().size(); i++) {
            AlertRule rule = properties.rules().get(i);
            List<FieldError> errors = check(rule, "ax.alerts.rules[" + i + "]");
            // a filter the type does not read was accepted before the API refused it: a configuration that has one
            // still starts, told so
            unreadFilters(rule, "ax.alerts.rules[" + i + "]")
                    .forEach(e -> log.warn("{}: {}; it narrows nothing", e.field(), e.message()));
            unmatchableFilters(rule, "ax.alerts.rules[" + i + "]")
                    .forEach(e -> log.warn("{}: {}; the rule watches nothing", e.field(), e.message()));
            if (!errors.isEmpty()) throw new IllegalStateException(new InvalidRequestException(errors).getMessage());
            upsert(rule, "properties");
        }
    }

    public List<AlertRule> all() {
        return jdbc.query(
                "SELECT name, type, filter_json, threshold, for_ms, channels, max_per_window FROM alert_rules"
                        + " ORDER BY name LIMIT " + MAX_RULES,
                Map.of(),
                (rs, i) -> new AlertRule(
                        rs.getString(1),
                        AlertType.valueOf(rs.getString(2)),
                        read(rs.getString(3), AlertRule.Filter.class),
                        rs.getLong(4),
                        rs.getLong(5),
                        readList(rs.getString(6)),
                        rs.getObject(7, Integer.class)));
    }

    public AlertRule find(String name) {
        return all().stream()
                .filter(r -> r.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new NotFoundException("alert rule", name));
    }

    /**
     * Stores a new rule and records who made it (409 when the name is taken); what reading the request's body found
     * wrong ({@link AlertRuleBody}) is named with the rest of the checks.
     */
    AlertRule create(AlertRuleBody body, Caller by) {
        AlertRule rule = body.rule();
        requireValid(rule, body);
        return transaction.execute(tx -> {
            Integer count = jdbc.queryForObject("SELECT COUNT(*) FROM alert_rules", Map.of(), Integer.class);
            if (count != null && count >= MAX_RULES)
                throw InvalidRequestException.of("name", "at most " + MAX_RULES + " rules exist at once");
            try {
                jdbc.update(
                        "INSERT INTO alert_rules (name, type, filter_json, threshold, for_ms, channels, max_per_window,"
                                + " source, created_at, updated_at) VALUES (:name, :type, :filter, :threshold, :forMs,"
                                + " :channels, :maxPerWindow, 'api', " + DatabaseTime.NOW_MS + ", "
                                + DatabaseTime.NOW_MS + ")",
                        params(rule));
            } catch (DuplicateKeyException taken) {
                throw new AlreadyExistsException("alert rule " + rule.name() + " already exists");
            }
            AlertRule stored = find(rule.name());
            record(stored.name(), AlertRuleChange.CREATED, stored, by);
            return stored;
        });
    }

    /** Changes a rule (404 when there is none of that name) and records who did. */
    AlertRule update(String name, AlertRuleBody body, Caller by) {
        AlertRule rule = body.rule();
        if (rule.name() != null && !rule.name().equals(name))
            throw InvalidRequestException.of(
                    "name",
                    "differs from the rule's name in the path (" + name + "): a rule is not renamed; create one of the"
                            + " new name, then delete this one");
        AlertRule named = new AlertRule(
                name, rule.type(), rule.filter(), rule.threshold(), rule.forMs(), rule.channels(), rule.maxPerWindow());
        requireValid(named, body);
        return transaction.execute(tx -> {
            int n = jdbc.update(
                    "UPDATE alert_rules SET type = :type, filter_json = :filter, threshold = :threshold,"
                            + " for_ms = :forMs, channels = :channels, max_per_window = :maxPerWindow, updated_at = "
                            + DatabaseTime.NOW_MS + " WHERE name = :name",
                    params(named));
            if (n == 0) throw new NotFoundException("alert rule", name);
            forgetPending(name);
            AlertRule stored = find(name);
            record(name, AlertRuleChange.UPDATED, stored, by);
            return stored;
        });
    }

    /** Removes a rule (404 when there is none of that name) and records who did. */
    public void delete(String name, Caller by) {
        transaction.executeWithoutResult(tx -> {
            if (jdbc.update("DELETE FROM alert_rules WHERE name = :name", Map.of("name", name)) == 0)
                throw new NotFoundException("alert rule", name);
            forgetPending(name);
            record(name, AlertRuleChange.DELETED, null, by);
        });
    }

    /**
     * The change as an event of the admin trail, in the transaction of the row: the row's lock, taken first, puts two
     * changes of one rule in line, so each appends after the other's event.
     */
    private void record(String name, AlertRuleChange change, AlertRule rule, Caller by) {
        Map<String, Object> stored = rule == null ? null : json.convertValue(rule, STORED);
        commands.sendAndWait(GenericCommandMessage.asCommandMessage(new RecordAlertRuleChange(name, change, stored))
                .andMetaData(Caller.metadataOf(by)));
    }

    /** A changed condition starts its forMs again: what held under the old one says nothing of the new. */
    private void forgetPending(String name) {
        jdbc.update("DELETE FROM alert_pending WHERE rule = :name", Map.of("name", name));
    }

    private void upsert(AlertRule rule, String source) {
        MapSqlParameterSource p = params(rule).addValue("source", source);
        jdbc.update(
                "INSERT INTO alert_rules (name, type, filter_json, threshold, for_ms, channels, max_per_window,"
                        + " source, created_at, updated_at) VALUES (:name, :type, :filter, :threshold, :forMs,"
                        + " :channels, :maxPerWindow, :source, " + DatabaseTime.NOW_MS + ", " + DatabaseTime.NOW_MS
                        + ") ON DUPLICATE KEY UPDATE type = VALUES(type), filter_json = VALUES(filter_json),"
                        + " threshold = VALUES(threshold), for_ms = VALUES(for_ms), channels = VALUES(channels),"
                        + " max_per_window = VALUES(max_per_window), source = VALUES(source),"
                        + " updated_at = VALUES(updated_at)",
                p);
    }

    /** Every error at once: a field the body gave in the wrong shape is named for that, and not again as missing. */
    private void requireValid(AlertRule rule, AlertRuleBody body) {
        List<FieldError> errors = new ArrayList<>(body.errors());
        // a body that is no object has no fields to speak of
        if (errors.stream().anyMatch(e -> e.field().equals("body"))) throw new InvalidRequestException(errors);
        java.util.Set<String> named = new java.util.HashSet<>();
        body.errors().forEach(e -> named.add(e.field()));
        List<FieldError> rest = new ArrayList<>(check(rule, null, body.channelsAsGiven()));
        rest.addAll(unreadFilters(rule, null));
        rest.addAll(unmatchableFilters(rule, null));
        rest.stream().filter(e -> !named.contains(e.field())).forEach(errors::add);
        if (!errors.isEmpty()) throw new InvalidRequestException(errors);
    }

    /** What is wrong with a rule, each naming its field ({@code prefix.field} for a rule of the properties). */
    List<FieldError> check(AlertRule rule, String prefix) {
        return check(rule, prefix, rule.channels());
    }

    /** {@code channels}: as given, by which index a bad one is named (null entries are left to the body's check). */
    private List<FieldError> check(AlertRule rule, String prefix, List<String> channels) {
        String p = prefix == null ? "" : prefix + ".";
        List<FieldError> errors = new ArrayList<>();
        if (rule.name() == null || !NAME.matcher(rule.name()).matches())
            errors.add(new FieldError(p + "name", "required: 1-" + MAX_NAME + " of A-Z a-z 0-9 _ . : -"));
        if (rule.type() == null)
            errors.add(new FieldError(p + "type", "required: one of " + List.of(AlertType.values())));
        if (rule.threshold() != null && rule.threshold() < 0)
            errors.add(new FieldError(p + "threshold", "must not be negative"));
        if (rule.forMs() != null && (rule.forMs() < 0 || rule.forMs() > AlertProperties.MAX_WINDOW_MS))
            errors.add(new FieldError(p + "forMs", "must be 0.." + AlertProperties.MAX_WINDOW_MS));
        if (rule.maxPerWindow() != null
                && (rule.maxPerWindow() < 1 || rule.maxPerWindow() > AlertProperties.MAX_PER_WINDOW))
            errors.add(new FieldError(p + "maxPerWindow", "must be 1.." + AlertProperties.MAX_PER_WINDOW));
        if (channels.size() > 10) errors.add(new FieldError(p + "channels", "at most 10"));
        for (int i = 0; i < channels.size(); i++) {
            if (channels.get(i) != null && !properties.channels().containsKey(channels.get(i)))
                errors.add(new FieldError(
                        p + "channels[" + i + "]",
                        "no channel " + channels.get(i) + " in ax.alerts.channels (have "
                                + properties.channels().keySet() + ")"));
        }
        AlertRule.Filter f = rule.filter();
        if (f.namespace() != null && !Namespaces.isValid(f.namespace()))
            errors.add(new FieldError(p + "filter.namespace", "must be 1-63 lowercase letters, digits or '-'"));
        filterFields(f).forEach((field, value) -> {
            if (value.isBlank() || value.length() > MAX_NAME)
                errors.add(new FieldError(p + "filter." + field, "must be 1-" + MAX_NAME + " characters"));
        });
        return errors;
    }

    /**
     * Filter values no job type, app or schedule id can have (those are all names of letters, digits, '.', '_' and
     * '-'): the rule would watch nothing.
     */
    static List<FieldError> unmatchableFilters(AlertRule rule, String prefix) {
        String p = prefix == null ? "" : prefix + ".";
        List<FieldError> errors = new ArrayList<>();
        filterFields(rule.filter()).forEach((field, value) -> {
            if (!value.isBlank()
                    && value.length() <= MAX_NAME
                    && !RegisterWorker.NAME.matcher(value).matches())
                errors.add(new FieldError(p + "filter." + field, "must be letters, digits, '.', '_' or '-'"));
        });
        return errors;
    }

    /**
     * The filter fields set that the rule's type does not read ({@link AlertType#filters()}): they would narrow nothing,
     * so the rule would watch more than it says.
     */
    static List<FieldError> unreadFilters(AlertRule rule, String prefix) {
        if (rule.type() == null) return List.of();
        String p = prefix == null ? "" : prefix + ".";
        List<FieldError> errors = new ArrayList<>();
        filterFields(rule.filter()).keySet().stream()
                .filter(field -> !rule.type().filters().contains(field))
                .forEach(field -> errors.add(
                        new FieldError(p + "filter." + field, "is not a filter of " + rule.type() + " rules")));
        return errors;
    }

    /** The filter's fields that are set, by name. */
    private static Map<String, String> filterFields(AlertRule.Filter f) {
        Map<String, String> set = new java.util.LinkedHashMap<>();
        if (f.namespace() != null) set.put("namespace", f.namespace());
        if (f.jobType() != null) set.put("jobType", f.jobType());
        if (f.scheduleId() != null) set.put("scheduleId", f.scheduleId());
        if (f.app() != null) set.put("app", f.app());
        return set;
    }

    private MapSqlParameterSource params(AlertRule rule) {
        return new MapSqlParameterSource()
                .addValue("name", rule.name())
                .addValue("type", rule.type().name())
                .addValue("filter", write(rule.filter()))
                .addValue("threshold", rule.thresholdOrDefault())
                .addValue("forMs", rule.forMsOrZero())
                .addValue("channels", write(rule.channels()))
                .addValue("maxPerWindow", rule.maxPerWindow());
    }

    private String write(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private List<String> readList(String text) {
        try {
            return json.readValue(text, STRINGS);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("alert_rules holds unreadable JSON", e);
        }
    }

    private <T> T read(String text, Class<T> type) {
        try {
            return json.readValue(text, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("alert_rules holds unreadable JSON", e);
        }
    }
}
