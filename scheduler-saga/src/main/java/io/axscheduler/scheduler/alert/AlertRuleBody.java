package io.axscheduler.scheduler.alert;

import com.fasterxml.jackson.databind.JsonNode;
import io.axscheduler.api.alert.AlertType;
import io.axscheduler.api.problem.FieldError;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A rule as a request's body gives it, read field by field so that every field of the wrong shape is named at once
 * (binding the body to {@link AlertRule} would stop at the first). A field that cannot be read is left null in the
 * rule and named in {@code errors}; {@link AlertRules} then checks the rest. {@code channelsAsGiven}: the channels
 * as the body lists them (null where one is no string; empty when absent), so that a refusal names a channel by its
 * index in the body, not in the rule, which keeps each channel once.
 */
record AlertRuleBody(AlertRule rule, List<FieldError> errors, List<String> channelsAsGiven) {

    private static final Set<String> FIELDS =
            Set.of("name", "type", "filter", "threshold", "forMs", "channels", "maxPerWindow");
    private static final Set<String> FILTER_FIELDS = Set.of("namespace", "jobType", "scheduleId", "app");

    static AlertRuleBody read(JsonNode body) {
        List<FieldError> errors = new ArrayList<>();
        if (body == null || !body.isObject()) {
            errors.add(new FieldError("body", "must be a JSON object"));
            return new AlertRuleBody(new AlertRule(null, null, null, null, null, null, null), errors, List.of());
        }
        unknown(body, FIELDS, "", errors);
        String name = text(body, "name", "", errors);
        AlertType type = null;
        String typeName = text(body, "type", "", errors);
        if (typeName != null) {
            try {
                type = AlertType.valueOf(typeName);
            } catch (IllegalArgumentException e) {
                errors.add(new FieldError("type", "must be one of " + Arrays.toString(AlertType.values())));
            }
        }
        AlertRule.Filter filter = null;
        JsonNode f = present(body, "filter");
        if (f != null && !f.isObject()) {
            errors.add(new FieldError("filter", "must be a JSON object"));
        } else if (f != null) {
            unknown(f, FILTER_FIELDS, "filter.", errors);
            filter = new AlertRule.Filter(
                    text(f, "namespace", "filter.", errors),
                    text(f, "jobType", "filter.", errors),
                    text(f, "scheduleId", "filter.", errors),
                    text(f, "app", "filter.", errors));
        }
        Long threshold = whole(body, "threshold", errors);
        Long forMs = whole(body, "forMs", errors);
        Long perWindow = whole(body, "maxPerWindow", errors);
        Integer maxPerWindow = null;
        if (perWindow != null) {
            if (perWindow < Integer.MIN_VALUE || perWindow > Integer.MAX_VALUE)
                errors.add(new FieldError("maxPerWindow", "must be 1.." + AlertProperties.MAX_PER_WINDOW));
            else maxPerWindow = perWindow.intValue();
        }
        List<String> asGiven = new ArrayList<>();
        JsonNode c = present(body, "channels");
        if (c != null && !c.isArray()) {
            errors.add(new FieldError("channels", "must be an array of channel names"));
        } else if (c != null) {
            for (int i = 0; i < c.size(); i++) {
                if (!c.get(i).isTextual()) errors.add(new FieldError("channels[" + i + "]", "must be a string"));
                asGiven.add(c.get(i).isTextual() ? c.get(i).textValue() : null);
            }
        }
        List<String> channels = asGiven.stream().filter(Objects::nonNull).toList();
        return new AlertRuleBody(
                new AlertRule(name, type, filter, threshold, forMs, channels, maxPerWindow),
                List.copyOf(errors),
                Collections.unmodifiableList(asGiven));
    }

    /** The field's node, or null when it is absent or JSON null (as binding reads both). */
    private static JsonNode present(JsonNode object, String field) {
        JsonNode n = object.get(field);
        return n == null || n.isNull() ? null : n;
    }

    private static String text(JsonNode object, String field, String prefix, List<FieldError> errors) {
        JsonNode n = present(object, field);
        if (n == null) return null;
        if (n.isTextual()) return n.textValue();
        errors.add(new FieldError(prefix + field, "must be a string"));
        return null;
    }

    private static Long whole(JsonNode object, String field, List<FieldError> errors) {
        JsonNode n = present(object, field);
        if (n == null) return null;
        if (n.isIntegralNumber() && n.canConvertToLong()) return n.longValue();
        errors.add(new FieldError(field, n.isIntegralNumber() ? "is out of range" : "must be a whole number"));
        return null;
    }

    private static void unknown(JsonNode object, Set<String> known, String prefix, List<FieldError> errors) {
        for (Iterator<String> names = object.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!known.contains(name)) errors.add(new FieldError(prefix + name, "is not a known field"));
        }
    }
}
