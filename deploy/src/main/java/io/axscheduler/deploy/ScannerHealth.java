package io.axscheduler.deploy;

import io.axscheduler.api.IsoInstants;
import io.axscheduler.scheduler.SchedulerProperties;
import io.axscheduler.scheduler.claim.ScanDueJobs;
import io.axscheduler.scheduler.fire.ScanSchedules;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * DOWN when this node's job scan or schedule pass has not completed for longer than
 * {@code ax.scheduler.health.scan-stall-ms}:
 * the "half-dead" node whose process lives while its scan thread is stuck on the database. A load balancer or
 * orchestrator can then replace it.
 */
@Component("scanner")
class ScannerHealth implements HealthIndicator {

    private final ScanDueJobs scanner;
    private final ScanSchedules scheduleScanner;
    private final SchedulerProperties properties;
    private final Clock clock;

    ScannerHealth(ScanDueJobs scanner, ScanSchedules scheduleScanner, SchedulerProperties properties, Clock clock) {
        this.scanner = scanner;
        this.scheduleScanner = scheduleScanner;
        this.properties = properties;
        this.clock = clock;
    }

    @Override
    public Health health() {
        if (!properties.scan().enabled()) {
            return Health.up()
                    .withDetail("scanning", "switched off on this node")
                    .build();
        }
        Instant now = clock.instant();
        long jobScanAge = Duration.between(scanner.lastCompletedScan(), now).toMillis();
        long scheduleScanAge =
                Duration.between(scheduleScanner.lastCompletedPass(), now).toMillis();
        long stallAfter = properties.health().scanStallMs();
        Health.Builder health = jobScanAge > stallAfter || scheduleScanAge > stallAfter ? Health.down() : Health.up();
        return health.withDetail("lastCompletedScan", IsoInstants.millis(scanner.lastCompletedScan()))
                .withDetail("millisSinceLastScan", jobScanAge)
                .withDetail("lastCompletedSchedulePass", IsoInstants.millis(scheduleScanner.lastCompletedPass()))
                .withDetail("millisSinceLastSchedulePass", scheduleScanAge)
                .withDetail("stallAfterMs", stallAfter)
                .build();
    }
}
