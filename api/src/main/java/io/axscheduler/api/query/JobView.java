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
}
