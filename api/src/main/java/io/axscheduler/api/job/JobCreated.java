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
        String routeStrategy,
        String namespace) {
    public JobCreated {
        if (namespace == null) namespace = io.axscheduler.api.security.Grant.DEFAULT_NAMESPACE;
    }

    /** Without a namespace: the {@code default} one (events written before namespaces existed read so too). */
    public JobCreated(
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
            String routeStrategy) {
        this(
                jobId,
                jobKey,
                jobType,
                params,
                priority,
                runAt,
                retryPolicy,
                timeoutMs,
                scheduleId,
                executorApp,
                routeStrategy,
                io.axscheduler.api.security.Grant.DEFAULT_NAMESPACE);
    }
}
