package io.axscheduler.scheduler.run.handlers;

import java.util.Map;

/** A built-in type's whole-number parameter, judged at submit: absent, or a whole number within its range. */
final class WholeNumberParam {

    private WholeNumberParam() {}

    /** The problem with {@code params.name}, none when it is absent or a whole number from 0 to {@code max}. */
    static Map<String, String> problems(Map<String, Object> params, String name, long max) {
        Object value = params.get(name);
        if (value == null) return Map.of();
        boolean whole = value instanceof Integer || value instanceof Long;
        if (!whole || ((Number) value).longValue() < 0 || ((Number) value).longValue() > max)
            return Map.of(name, "must be a whole number from 0 to " + max);
        return Map.of();
    }
}
