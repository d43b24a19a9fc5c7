package io.axscheduler.api.job;

import java.time.Instant;
import java.util.Map;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Creates a job, or — when {@code jobKey} was seen before — answers with the job that key already made. */
public record SubmitJob(
        @TargetAggregateIdentifier String jobId,
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
    public SubmitJob {
        namespace = io.axscheduler.api.Namespaces.orDefault(namespace);
    }

    /** Without a namespace: the {@code default} one (events written before namespaces existed read so too). */
    public SubmitJob(
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
