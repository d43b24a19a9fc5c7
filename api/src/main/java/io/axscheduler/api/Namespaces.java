package io.axscheduler.api;

import java.util.regex.Pattern;

/**
 * Namespaces: every job, schedule and worker app belongs to one, named by {@link #PATTERN}; what names none is in
 * {@link #DEFAULT}. The one place that says so — messages, read models, metrics, grants and the console all ask here.
 */
public final class Namespaces {

    public static final String DEFAULT = "default";
    /**
     * The scheduler's own jobs (the deliveries of alerts, which carry what the alerts of every namespace say): seen
     * and changed by a global role only. No request puts a job, schedule, worker or grant there.
     */
    public static final String SYSTEM = "ax-system";
    /** Lowercase letters, digits and '-', 1 to 63 of them: safe in a URL, a metric label and a grant's text. */
    public static final Pattern PATTERN = Pattern.compile("[a-z0-9-]{1,63}");

    private Namespaces() {}

    /**
     * {@code namespace}, or {@link #DEFAULT} when it is null (a message written before namespaces existed). A blank
     * one is kept, so that validation refuses it.
     */
    public static String orDefault(String namespace) {
        return namespace == null ? DEFAULT : namespace;
    }

    public static boolean isValid(String namespace) {
        return namespace != null && PATTERN.matcher(namespace).matches();
    }

    /** Whether {@code namespace} is the scheduler's own ({@link #SYSTEM}), which no request may name for its work. */
    public static boolean isReserved(String namespace) {
        return SYSTEM.equals(namespace);
    }

    /** The refusal of a request that names {@link #SYSTEM} for its work. */
    public static final String RESERVED_MESSAGE =
            "must not be " + SYSTEM + ": that namespace holds the scheduler's own jobs (alert deliveries)";

    /** Whether a filter value (null or blank: any) lets rows of {@code namespace} through. */
    public static boolean matches(String filter, String namespace) {
        return filter == null || filter.isBlank() || filter.trim().equals(namespace);
    }
}
