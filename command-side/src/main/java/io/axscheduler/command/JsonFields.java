package io.axscheduler.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.axscheduler.api.IsoInstants;
import io.axscheduler.api.problem.FieldError;
import io.axscheduler.api.problem.InvalidRequestException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/** Typed reads of one JSON object's fields, each reporting its own errors under the object's path. */
public final class JsonFields {
    private final JsonNode body;
    private final String path;
    private final List<FieldError> errors;

    public JsonFields(JsonNode body, String path, List<FieldError> errors) {
        this.body = body;
        this.path = path;
        this.errors = errors;
    }

    private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999Z");

    /** Items in one batch request at most: jobs, schedules. */
    public static final int MAX_BATCH = 1_000;

    /**
     * The items of a batch request {@code {"<field>": [ … ]}}: an array of 1 to {@link #MAX_BATCH}, answered at once
     * when it is not; any other field beside it is added to {@code errors}.
     */
    public static JsonNode batchItems(JsonNode body, String field, List<FieldError> errors) {
        JsonNode items = body == null ? null : body.get(field);
        if (items == null || !items.isArray()) {
            throw InvalidRequestException.of(field, "must be an array of " + field);
        }
        if (items.isEmpty() || items.size() > MAX_BATCH) {
            throw InvalidRequestException.of(
                    field, "must hold 1 to " + MAX_BATCH + " " + field + ", held " + items.size());
        }
        body.fieldNames().forEachRemaining(name -> {
            if (!name.equals(field)) errors.add(new FieldError(name, "is not a known field"));
        });
        return items;
    }

    public JsonFields nested(String field, JsonNode node) {
        return new JsonFields(node, name(field), errors);
    }

    /** How many errors the whole request has so far: compare before and after a part to see whether it failed. */
    public int errorCount() {
        return errors.size();
    }

    public boolean has(String field) {
        JsonNode n = body.get(field);
        return n != null && !n.isNull();
    }

    public JsonNode node(String field) {
        return has(field) ? body.get(field) : null;
    }

    public void error(String field, String message) {
        errors.add(new FieldError(name(field), message));
    }

    public void rejectUnknown(Set<String> known) {
        for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (!known.contains(name)) error(name, "is not a known field");
        }
    }

    public String string(String field, int maxLength) {
        JsonNode n = node(field);
        if (n == null) return null;
        if (!n.isTextual()) {
            error(field, "must be a string");
            return null;
        }
        String s = n.asText();
        if (!isWellFormed(s)) {
            error(field, "must be valid Unicode (it holds a lone surrogate)");
            return null;
        }
        if (s.isBlank()) {
            error(field, "must not be blank");
            return null;
        }
        if (s.length() > maxLength) {
            error(field, "must be at most " + maxLength + " characters");
            return null;
        }
        return s;
    }

    /**
     * A string that names something (a job key, a schedule's name): as {@link #string}, and without control characters
     * or bidirectional formatting characters, which would break the lines of logs and make a name display as another.
     */
    public String name(String field, int maxLength) {
        String s = string(field, maxLength);
        if (s == null) return null;
        if (s.codePoints().anyMatch(JsonFields::unprintable)) {
            error(field, "must not hold control characters or bidirectional formatting characters");
            return null;
        }
        return s;
    }

    private static boolean unprintable(int c) {
        return Character.isISOControl(c) || io.axscheduler.api.TextLimit.bidiFormatting(c);
    }

    public long integer(String field, long min, long max, long fallback) {
        return has(field) ? integer(field, min, max) : fallback;
    }

    public Double decimal(String field) {
        JsonNode n = node(field);
        if (!n.isNumber()) {
            error(field, "must be a number");
            return null;
        }
        return n.asDouble();
    }

    public long integer(String field, long max) {
        return integer(field, Long.MIN_VALUE, max);
    }

    /**
     * Negative values are reported by the trigger itself when min is unbounded, so its message is the one shown. A
     * whole number beyond a long is held at the long's end, beyond every field's bounds, so it gets the bound's message.
     */
    public long integer(String field, long min, long max) {
        JsonNode n = node(field);
        if (!n.isIntegralNumber()) {
            error(field, "must be a whole number");
            return 0;
        }
        long v = n.canConvertToLong() ? n.asLong() : n.bigIntegerValue().signum() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        if (v < min) error(field, min == 0 ? "must not be negative" : "must be at least " + min);
        else if (v > max) error(field, "must be at most " + max);
        return v;
    }

    public Instant instant(String field) {
        String s = string(field, 64);
        if (s == null) return null;
        try {
            Instant at = IsoInstants.parse(s);
            if (at.isBefore(Instant.EPOCH) || at.isAfter(LATEST)) {
                error(field, "must lie between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z");
                return null;
            }
            return at;
        } catch (DateTimeParseException e) {
            error(field, "must be an ISO-8601 instant such as 2026-11-30T10:00:00.000Z");
            return null;
        }
    }

    public <E extends Enum<E>> E enumValue(String field, Class<E> type, E fallback) {
        String s = string(field, 40);
        if (s == null) return has(field) ? null : fallback;
        try {
            return Enum.valueOf(type, s);
        } catch (IllegalArgumentException e) {
            error(field, "unknown " + field + " '" + s + "'; one of " + Arrays.toString(type.getEnumConstants()));
            return null;
        }
    }

    /**
     * Whether every surrogate in {@code s} is half of a pair. JSON's {@code \\uD800} escapes can spell a lone one, which
     * no UTF-8 column can store: MariaDB writes it as {@code ?}, and two different keys would become one.
     */
    public static boolean isWellFormed(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) i++;
            else if (Character.isSurrogate(c)) return false;
        }
        return true;
    }

    /** The path of the first string (a value or a field name) in {@code node} that is not well-formed, or null. */
    public static String firstMalformed(JsonNode node, String at) {
        return first(node, at, n -> n.isTextual() && !isWellFormed(n.textValue()), key -> !isWellFormed(key));
    }

    /**
     * The path of the first number under {@code node} too large for a 64-bit float, or null: the parser reads it as
     * infinite, which would be stored as the string "Infinity" in the number's place.
     */
    public static String firstNonFinite(JsonNode node, String at) {
        return first(node, at, n -> n.isFloatingPointNumber() && !Double.isFinite(n.doubleValue()), key -> false);
    }

    /** The path of the first value {@code bad} holds for, or of the first object with a key {@code badKey} holds for. */
    private static String first(
            JsonNode node,
            String at,
            java.util.function.Predicate<JsonNode> bad,
            java.util.function.Predicate<String> badKey) {
        if (bad.test(node)) return at;
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String found = first(node.get(i), at + "[" + i + "]", bad, badKey);
                if (found != null) return found;
            }
        }
        for (Iterator<java.util.Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            java.util.Map.Entry<String, JsonNode> e = it.next();
            String found = badKey.test(e.getKey()) ? at : first(e.getValue(), at + "." + e.getKey(), bad, badKey);
            if (found != null) return found;
        }
        return null;
    }

    private String name(String field) {
        return path.isEmpty() ? field : path + "." + field;
    }
}
