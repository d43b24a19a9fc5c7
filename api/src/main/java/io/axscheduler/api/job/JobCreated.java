package io.axscheduler.api.job;

import java.time.Instant;
import java.util.Map;

public record JobCreated(
        String jobId,
        String jobKey,
        String jobType,
        Map<String, Object> params,
        int priority,
        Instant runAt,
        RetryPolicy retryPolicy,
        long timeoutMs,
        String scheduleId,
        String executorApp,
        String routeStrategy) {}
