package io.axscheduler.query.stats;

import io.axscheduler.api.query.JobView;
import io.axscheduler.api.schedule.ScheduleView;

/**
 * What the console still asks here; the answers are {@link io.axscheduler.api.Namespaces}'s, the one home of
 * namespaces. To be removed once the console reads them there and from its views.
 */
public final class Namespaces {

    public static final String DEFAULT = io.axscheduler.api.Namespaces.DEFAULT;

    private Namespaces() {}

    /** The namespace of a job or schedule view; {@link #DEFAULT} for anything else. */
    public static String of(Object view) {
        if (view instanceof JobView job) return job.namespace();
        if (view instanceof ScheduleView schedule) return schedule.namespace();
        return DEFAULT;
    }

    /** Whether a filter value (blank: any) lets rows of {@code namespace} through. */
    public static boolean matches(String filter, String namespace) {
        return io.axscheduler.api.Namespaces.matches(filter, namespace);
    }
}
