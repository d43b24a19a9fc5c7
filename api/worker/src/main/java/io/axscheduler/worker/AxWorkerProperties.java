package io.axscheduler.worker;

import java.util.Arrays;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The worker runtime, under {@code ax.worker}. Only {@code scheduler-url} is required; without it the runtime stays
 * off.
 *
 * @param schedulerUrl     base URL of a scheduler node or load balancer, e.g. {@code http://localhost:8080}, or several
 *                         nodes' separated by commas: a call that finds one unreachable or answering a server error goes to the
 *                         next, so a node's restart holds up no heartbeat or callback
 * @param app              the executor app this worker belongs to (jobs name it in {@code executorApp}); default
 *                         {@code spring.application.name}, else {@code ax-worker}
 * @param address          base URL the scheduler pushes to; default {@code http://127.0.0.1:<server port><context path>}
 * @param capacity         jobs run at once: the pool's size, registered with the scheduler
 * @param connectTimeoutMs connect timeout of every call to the scheduler
 * @param readTimeoutMs    response timeout of every call to the scheduler
 * @param shutdownGraceMs  how long a stopping worker lets running jobs finish before it deregisters and cancels them
 * @param rememberedRuns   how many pushed attempts are remembered, so a repeated push is not run again
 * @param callbackRetryMs  how long an undelivered callback is tried again (backing off from 200 ms to 5 s) before it is
 *                         given up and the scheduler's run deadline decides: long enough for a node's restart or a
 *                         database outage
 * @param apiKey           the scheduler API key sent on every call (AX_WORKER_API_KEY): a WORKER key for the app's
 *                         namespace, or a global ADMIN key
 * @param namespace        the namespace of the app: the worker registers there, and only that namespace's WORKER keys
 *                         (or an ADMIN key) may register it
 */
@ConfigurationProperties("ax.worker")
public record AxWorkerProperties(
        String schedulerUrl,

        String app,

        String address,
        @DefaultValue("8") int capacity,
        @DefaultValue("2000") long connectTimeoutMs,
        @DefaultValue("5000") long readTimeoutMs,
        @DefaultValue("10000") long shutdownGraceMs,
        @DefaultValue("10000") int rememberedRuns,
        @DefaultValue("300000") long callbackRetryMs,
        String apiKey,
        @DefaultValue("default") String namespace) {

    public AxWorkerProperties {
        if (capacity < 1 || capacity > 256) throw new IllegalArgumentException("ax.worker.capacity must be 1..256");
        if (rememberedRuns < 100) throw new IllegalArgumentException("ax.worker.remembered-runs must be at least 100");
        if (callbackRetryMs < 0 || callbackRetryMs > 86_400_000L)
            throw new IllegalArgumentException("ax.worker.callback-retry-ms must be 0..86400000");
        if (schedulerUrl != null && schedulerUrls(schedulerUrl).isEmpty())
            throw new IllegalArgumentException("ax.worker.scheduler-url names no URL");
    }

    /** The scheduler URLs in {@code schedulerUrl}'s order, each without a trailing slash. */
    public List<String> schedulerUrls() {
        return schedulerUrls(schedulerUrl);
    }

    private static List<String> schedulerUrls(String text) {
        return Arrays.stream(text.split(","))
                .map(String::trim)
                .filter(url -> !url.isEmpty())
                .map(url -> url.endsWith("/") ? url.substring(0, url.length() - 1) : url)
                .toList();
    }
}
