package io.axscheduler.deploy;

import io.axscheduler.scheduler.SchedulerProperties;
import io.axscheduler.scheduler.scan.ScanDueJobs;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * DOWN when this node's scanner has not completed a scan for longer than {@code ax.scheduler.health.scan-stall-ms}:
 * the "half-dead" node whose process lives while its scan thread is stuck on the database. A load balancer or
 * orchestrator can then replace it.
 */
@Component("scanner")
class ScannerHealth implements HealthIndicator {

    private final ScanDueJobs scanner;
    private final SchedulerProperties properties;
    private final Clock clock;

    ScannerHealth(ScanDueJobs scanner, SchedulerProperties properties, Clock clock) {
        this.scanner = scanner;
        this.properties = properties;
        this.clock = clock;
    }

    @Override
    public Health health() {
        if (!properties.scan().enabled()) {
            return Health.up().withDetail("scanning", "switched off on this node").build();
        }
        Instant last = scanner.lastCompletedScan();
        Duration since = Duration.between(last, clock.instant());
        Health.Builder health = since.toMillis() > properties.health().scanStallMs() ? Health.down() : Health.up();
        return health.withDetail("lastCompletedScan", last.toString())
                .withDetail("millisSinceLastScan", since.toMillis())
                .withDetail("stallAfterMs", properties.health().scanStallMs())
                .build();
    }
}
