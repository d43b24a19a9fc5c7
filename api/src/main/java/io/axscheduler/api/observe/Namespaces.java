package io.axscheduler.api.observe;

import io.axscheduler.api.job.JobCreated;
import io.axscheduler.api.schedule.ScheduleCreated;

/**
 * The namespace a job or schedule belongs to, as metrics, alerts and explanations label it. Jobs and schedules carry
 * no namespace yet: every one is in {@value #DEFAULT}. When they do, these methods read it, and every caller follows.
 */
public final class Namespaces {

    public static final String DEFAULT = "default";

    private Namespaces() {}

    public static String of(JobCreated event) {
        return DEFAULT;
    }

    public static String of(ScheduleCreated event) {
        return DEFAULT;
    }

    /** The namespace of a job_queue or schedules row; the column does not exist yet. */
    public static String ofRow(String column) {
        return column == null || column.isBlank() ? DEFAULT : column;
    }

    /** The SQL expression of a row's namespace in job_queue or schedules, for queries that group by it. */
    public static final String SQL_COLUMN = "'" + DEFAULT + "'";
}
