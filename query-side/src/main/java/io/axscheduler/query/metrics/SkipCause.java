package io.axscheduler.query.metrics;

/**
 * Why a fire was skipped, read from the reason {@code ScheduleFireSkipped} records: the scanner names the policy that
 * skipped it ("misfire policy …" or "overlap policy …") in every reason it writes.
 */
public enum SkipCause {
    MISFIRE,
    OVERLAP;

    public static SkipCause of(String reason) {
        return reason != null && reason.contains("overlap policy") ? OVERLAP : MISFIRE;
    }
}
