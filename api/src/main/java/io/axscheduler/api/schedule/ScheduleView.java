package io.axscheduler.api.schedule;

import io.axscheduler.api.job.JobStatus;
import java.time.Instant;

/**
 * A schedule as the API shows it ({@code GET /api/v1/schedules/{id}}). {@code completed}: a {@code once} schedule
 * whose one time has been fired or skipped, or a cron one whose last fire time has (its year field has run out),
 * which fires no more by itself (its state stays {@code ACTIVE}: it may still be triggered by hand, or given a new
 * trigger).
 */
public record ScheduleView(
        String scheduleId,
        String name,
        ScheduleState state,
        boolean paused,
        boolean completed,
        Trigger trigger,
        String timezone,
        String description,
        JobTemplate job,
        MisfirePolicy misfirePolicy,
        OverlapPolicy overlapPolicy,
        Instant nextFireTime,
        Instant queuedFireTime,
        Instant lastFireTime,
        String lastJobId,
        JobStatus lastJobStatus,
        String lastSkipReason,
        long fireCount,
        long skipCount,
        Instant createdAt,
        Instant updatedAt,
        String namespace) {
    public ScheduleView {
        namespace = io.axscheduler.api.Namespaces.orDefault(namespace);
    }
}
