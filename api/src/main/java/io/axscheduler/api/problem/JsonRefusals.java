package io.axscheduler.api.problem;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.axscheduler.api.StrictJson;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.Map;
import java.util.stream.Collectors;

/** Why Jackson refused a body, as a field error of the API: the field's path and the rule it broke. */
public final class JsonRefusals {

    private JsonRefusals() {}

    public static FieldError describe(Throwable cause) {
        if (cause instanceof StreamConstraintsException limit) {
            String message = limit.getOriginalMessage() == null ? "" : limit.getOriginalMessage();
            return new FieldError(
                    "body",
                    message.contains("nesting depth")
                            ? "nests objects and arrays deeper than " + StrictJson.MAX_NESTING + " levels"
                            : "holds a value beyond the parser's limits (a number of over 100 digits)");
        }
        if (cause instanceof UnrecognizedPropertyException unknown) {
            return new FieldError(path(unknown, unknown.getPropertyName()), "is not a known field");
        }
        if (cause instanceof MismatchedInputException mismatch
                && mismatch.getPath().isEmpty()) {
            String message = String.valueOf(mismatch.getOriginalMessage());
            if (message.startsWith("Trailing token")) return new FieldError("body", "has data after the JSON value");
            if (message.startsWith("Duplicate field")) return new FieldError("body", "names a field twice");
            return new FieldError("body", "must be a JSON object");
        }
        if (cause instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            if (mapping.getCause() instanceof InputCoercionException tooLarge
                    && range(tooLarge.getTargetType()) != null)
                return new FieldError(
                        path(mapping, null),
                        "is out of range: must be a whole number " + range(tooLarge.getTargetType()));
            Class<?> target = cause instanceof MismatchedInputException m ? m.getTargetType() : null;
            return new FieldError(path(mapping, null), "must be " + kind(target));
        }
        if (cause instanceof JsonParseException parse) {
            String message = String.valueOf(parse.getOriginalMessage());
            JsonParser parser = parse.getProcessor();
            if (message.startsWith("Duplicate field") && parser != null) {
                return new FieldError(contextPath(parser.getParsingContext()), "appears more than once");
            }
            return new FieldError("body", "is not valid JSON: " + withoutTypes(message));
        }
        return new FieldError("body", "is not readable JSON");
    }

    /** What a value of {@code type} is called in the contract. */
    private static String kind(Class<?> type) {
        if (type == null) return "of another type";
        if (type == int.class || type == Integer.class || type == long.class || type == Long.class)
            return "a whole number";
        if (type == double.class || type == Double.class) return "a number";
        if (type == boolean.class || type == Boolean.class) return "true or false";
        if (type.isEnum()) return "one of " + java.util.Arrays.toString(type.getEnumConstants());
        if (type == String.class) return "a string";
        if (type.isArray() || Collection.class.isAssignableFrom(type)) return "an array";
        if (Map.class.isAssignableFrom(type) || type.isRecord()) return "a JSON object";
        return "of another type";
    }

    private static String path(JsonMappingException e, String last) {
        String path = e.getPath().stream()
                .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                .collect(Collectors.joining("."))
                .replace(".[", "[");
        // an unknown field's reference is the field itself when the path ends there
        if (last != null && !path.endsWith(last)) path = path.isEmpty() ? last : path + "." + last;
        return path.isEmpty() ? "body" : path;
    }

    private static String contextPath(JsonStreamContext context) {
        Deque<String> parts = new ArrayDeque<>();
        for (JsonStreamContext c = context; c != null && !c.inRoot(); c = c.getParent()) {
            if (c.inObject() && c.getCurrentName() != null) parts.push(c.getCurrentName());
            else if (c.inArray()) parts.push("[" + c.getCurrentIndex() + "]");
        }
        String path = String.join(".", parts).replace(".[", "[");
        return path.isEmpty() ? "body" : path;
    }

    /** The bounds of a whole number of {@code type}, or null for another type. */
    private static String range(Class<?> type) {
        if (type == int.class || type == Integer.class) return "from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE;
        if (type == long.class || type == Long.class) return "from " + Long.MIN_VALUE + " to " + Long.MAX_VALUE;
        return null;
    }

    /**
     * Jackson names Java types in backticks and points at its input source ("start marker at [Source: …]"); the API's
     * clients know neither.
     */
    private static String withoutTypes(String message) {
        return message.replaceAll("\\s*\\(start marker at \\[Source: [^\\]]*\\]\\)", "")
                .replaceAll("\\s*at \\[Source: [^\\]]*\\]", "")
                .replaceAll("`[^`]*`", "a value")
                .replaceAll("[\\r\\n]+", " ");
    }
}
