package io.axscheduler.api.query;

import io.axscheduler.api.job.JobStatus;
import java.time.Instant;

/** A job as the API shows it ({@code GET /api/v1/jobs/{id}}). */
public record JobView(
        String jobId,
        String jobKey,
        String jobType,
        JobStatus status,
        int priority,
        Instant runAt,
        int attempt,
        int maxRetries,
        String node,
        String worker,
        Instant createdAt,
        Instant updatedAt,
        String lastError,
        String result,
        String scheduleId,
        String namespace) {
    public JobView {
        namespace = io.axscheduler.api.Namespaces.orDefault(namespace);
    }

    /** Without a namespace: the {@code default} one (events written before namespaces existed read so too). */
    public JobView(
            String jobId,
            String jobKey,
            String jobType,
            JobStatus status,
            int priority,
            Instant runAt,
            int attempt,
            int maxRetries,
            String node,
            String worker,
            Instant createdAt,
            Instant updatedAt,
            String lastError,
            String result,
            String scheduleId) {
        this(
                jobId,
                jobKey,
                jobType,
                status,
                priority,
                runAt,
                attempt,
                maxRetries,
                node,
                worker,
                createdAt,
                updatedAt,
                lastError,
                result,
                scheduleId,
                io.axscheduler.api.Namespaces.DEFAULT);
    }
}
