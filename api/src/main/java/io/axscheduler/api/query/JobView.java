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
        if (namespace == null) namespace = io.axscheduler.api.security.Grant.DEFAULT_NAMESPACE;
    }
}
