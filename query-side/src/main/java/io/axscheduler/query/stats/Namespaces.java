package io.axscheduler.query.stats;

import io.axscheduler.api.job.JobCreated;
import io.axscheduler.api.query.JobView;
import io.axscheduler.api.schedule.ScheduleCreated;
import io.axscheduler.api.schedule.ScheduleView;

/**
 * The one place that says which namespace a job or schedule is in: the field of its created event or view (events
 * written before namespaces existed read as {@link #DEFAULT}).
 */
public final class Namespaces {

    public static final String DEFAULT = "default";

    private Namespaces() {}

    /** The namespace of a job's or schedule's created event or view; {@link #DEFAULT} for anything else. */
    public static String of(Object eventOrView) {
        if (eventOrView instanceof JobCreated e) return e.namespace();
        if (eventOrView instanceof JobView v) return v.namespace();
        if (eventOrView instanceof ScheduleCreated e) return e.namespace();
        if (eventOrView instanceof ScheduleView v) return v.namespace();
        return DEFAULT;
    }

    /** Whether a filter value (blank: any) lets rows of {@code namespace} through. */
    public static boolean matches(String filter, String namespace) {
        return filter == null || filter.isBlank() || filter.trim().equals(namespace);
    }
}
