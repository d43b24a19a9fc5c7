package io.axscheduler.scheduler.remote;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Jobs waiting for remote workers, under {@code ax.scheduler.remote}.
 *
 * @param noWorkerTimeout a job bound to an executor app, due this long ago while its namespace has no registered
 *                        worker of the app, is canceled with that reason (1 ms to 366 days)
 * @param noWorkerCheckMs how often each node looks for such jobs
 */
@ConfigurationProperties("ax.scheduler.remote")
public record RemoteProperties(
        @DefaultValue("PT10M") Duration noWorkerTimeout,
        @DefaultValue("5000") long noWorkerCheckMs) {

    public RemoteProperties {
        if (noWorkerTimeout.isNegative()
                || noWorkerTimeout.isZero()
                || noWorkerTimeout.compareTo(Duration.ofDays(366)) > 0)
            throw new IllegalArgumentException("ax.scheduler.remote.no-worker-timeout must be 1 ms to 366 days");
        if (noWorkerCheckMs < 100 || noWorkerCheckMs > 3_600_000)
            throw new IllegalArgumentException("ax.scheduler.remote.no-worker-check-ms must be 100..3600000");
    }
}
