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
        // the scheduler's own jobs (alert deliveries) are ax-system's, also those stored in default before it existed:
        // every reader (read models, their rebuilds, history, streams) sees them where only an admin sees them
        namespace = io.axscheduler.api.spi.JobTypeCatalog.reserved(jobType)
                ? io.axscheduler.api.Namespaces.SYSTEM
                : io.axscheduler.api.Namespaces.orDefault(namespace);
    }

    /** The job a submit creates: every value as the submit gave it. */
    public static JobCreated of(SubmitJob submit) {
        return new JobCreated(
                submit.jobId(),
                submit.jobKey(),
                submit.jobType(),
                submit.params(),
                submit.priority(),
                submit.runAt(),
                submit.retryPolicy(),
                submit.timeoutMs(),
                submit.scheduleId(),
                submit.executorApp(),
                submit.routeStrategy(),
                submit.namespace());
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
