package io.axscheduler.query.stream;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The live stream of changes ({@code GET /api/v1/stream}), under {@code ax.console.stream}.
 *
 * @param maxSubscribers open streams per node; more are refused with 503
 * @param queue          changes buffered per subscriber; one that falls behind loses the overflow and is told so
 * @param flushMs        how often buffered changes are sent
 * @param timeoutMs      a stream is closed after this long (the browser reconnects)
 * @param heartbeatMs    an idle stream gets a comment line this often, so proxies keep it open
 * @param idleStopMs     the node stops reading the event store for streams once it has had no subscriber this long,
 *                       and starts again, from the head of the store, with the next one
 * @param recheckMs      how often a stream's credentials are checked again: a stream whose API key was revoked or
 *                       expired, or whose console user was deleted or given other grants, ends at the next check
 */
@ConfigurationProperties("ax.console.stream")
public record StreamProperties(
        @DefaultValue("200") int maxSubscribers,
        @DefaultValue("1000") int queue,
        @DefaultValue("250") long flushMs,
        @DefaultValue("1800000") long timeoutMs,
        @DefaultValue("15000") long heartbeatMs,
        @DefaultValue("30000") long idleStopMs,
        @DefaultValue("5000") long recheckMs) {

    public StreamProperties {
        if (maxSubscribers < 0 || maxSubscribers > 10_000)
            throw new IllegalArgumentException("ax.console.stream.max-subscribers must be 0..10000");
        if (queue < 1 || queue > 100_000)
            throw new IllegalArgumentException("ax.console.stream.queue must be 1..100000");
        if (flushMs < 10) throw new IllegalArgumentException("ax.console.stream.flush-ms must be at least 10");
        if (timeoutMs < 1000) throw new IllegalArgumentException("ax.console.stream.timeout-ms must be at least 1000");
        if (heartbeatMs < 100)
            throw new IllegalArgumentException("ax.console.stream.heartbeat-ms must be at least 100");
        if (idleStopMs < 0) throw new IllegalArgumentException("ax.console.stream.idle-stop-ms must be at least 0");
        if (recheckMs < 100 || recheckMs > 600_000)
            throw new IllegalArgumentException("ax.console.stream.recheck-ms must be 100..600000");
    }
}
