package io.axscheduler.worker.demo;

import io.axscheduler.api.spi.JobContext;

final class DemoParams {

    private DemoParams() {
    }

    static long longValue(JobContext context, String name, long fallback) {
        Object value = context.params().get(name);
        if (value == null) return fallback;
        if (value instanceof Number n) return n.longValue();
        try {
            return Long.parseLong(value.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("params." + name + " must be a whole number, was '" + value + "'");
        }
    }
}
