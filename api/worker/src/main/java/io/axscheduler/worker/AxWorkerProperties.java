package io.axscheduler.worker;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The worker runtime, under {@code ax.worker}. Only {@code scheduler-url} is required; without it the runtime stays
 * off.
 *
 * @param schedulerUrl     base URL of any scheduler node, e.g. {@code http://localhost:8080}
 * @param app              the executor app this worker belongs to (jobs name it in {@code executorApp})
 * @param address          base URL the scheduler pushes to; default {@code http://127.0.0.1:<server port>}
 * @param capacity         jobs run at once: the pool's size, registered with the scheduler
 * @param connectTimeoutMs connect timeout of every call to the scheduler
 * @param readTimeoutMs    response timeout of every call to the scheduler
 * @param shutdownGraceMs  how long a stopping worker lets running jobs finish before it deregisters and cancels them
 * @param rememberedRuns   how many pushed attempts are remembered, so a repeated push is not run again
 * @param callbackAttempts tries to deliver one callback before giving up (the scheduler's run deadline then decides)
 * @param apiKey           the scheduler API key sent on every call (AX_WORKER_API_KEY): a WORKER key for the app's
 *                         namespace, or a global ADMIN key
 * @param namespace        the namespace of the app: the worker registers there, and only that namespace's WORKER keys
 *                         (or an ADMIN key) may register it
 */
@ConfigurationProperties("ax.worker")
public record AxWorkerProperties(
        String schedulerUrl,

        @DefaultValue("${spring.application.name:ax-worker}")
        String app,

        String address,
        @DefaultValue("8") int capacity,
        @DefaultValue("2000") long connectTimeoutMs,
        @DefaultValue("5000") long readTimeoutMs,
        @DefaultValue("10000") long shutdownGraceMs,
        @DefaultValue("10000") int rememberedRuns,
        @DefaultValue("5") int callbackAttempts,
        String apiKey,
        @DefaultValue("default") String namespace) {

    public AxWorkerProperties {
        if (capacity < 1 || capacity > 256) throw new IllegalArgumentException("ax.worker.capacity must be 1..256");
        if (rememberedRuns < 100) throw new IllegalArgumentException("ax.worker.remembered-runs must be at least 100");
    }
}
