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
        String routeStrategy) {}
