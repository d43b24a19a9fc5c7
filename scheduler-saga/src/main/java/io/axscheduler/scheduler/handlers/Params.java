package io.axscheduler.scheduler.handlers;

import java.util.Map;

final class Params {

    private Params() {
    }

    static long longValue(Map<String, Object> params, String name, long fallback) {
        Object value = params.get(name);
        if (value == null) return fallback;
        if (value instanceof Number n) return n.longValue();
        try {
            return Long.parseLong(value.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("params." + name + " must be a whole number, was '" + value + "'");
        }
    }

    static String string(Map<String, Object> params, String name, String fallback) {
        Object value = params.get(name);
        return value == null ? fallback : value.toString();
    }
}
