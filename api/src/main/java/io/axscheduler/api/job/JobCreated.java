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
        namespace = io.axscheduler.api.Namespaces.orDefault(namespace);
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
                io.axscheduler.api.Namespaces.DEFAULT);
    }
}
