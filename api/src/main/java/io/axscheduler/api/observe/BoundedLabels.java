package io.axscheduler.api.observe;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps a metric label's values to a bound: job types and apps are named by users, and every distinct value is a time
 * series Prometheus keeps. The first {@code max} values seen are kept as they are; later ones are reported as
 * {@value #OTHER}.
 */
public final class BoundedLabels {

    public static final String OTHER = "other";

    private final int max;
    private final Set<String> seen = ConcurrentHashMap.newKeySet();

    public BoundedLabels(int max) {
        if (max < 1) throw new IllegalArgumentException("a label keeps at least one value");
        this.max = max;
    }

    public String of(String value) {
        if (value == null || value.isEmpty()) return "none";
        if (seen.contains(value)) return value;
        synchronized (seen) {
            if (seen.size() < max) {
                seen.add(value);
                return value;
            }
        }
        return OTHER;
    }
}
