package io.axscheduler.query.stats;

/**
 * The one place that says which namespace a job or schedule is in. Namespaces are not in the events yet: until they
 * are, everything is in {@link #DEFAULT}, and this is where the events' field will be read.
 */
public final class Namespaces {

    public static final String DEFAULT = "default";

    private Namespaces() {}

    /** The namespace of a job or schedule with id {@code id}; every one is in {@link #DEFAULT} for now. */
    public static String of(Object eventOrView) {
        return DEFAULT;
    }

    /** Whether a filter value (blank: any) lets rows of {@code namespace} through. */
    public static boolean matches(String filter, String namespace) {
        return filter == null || filter.isBlank() || filter.trim().equals(namespace);
    }
}
