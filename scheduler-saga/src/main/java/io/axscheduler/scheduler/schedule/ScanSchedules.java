package io.axscheduler.scheduler.schedule;

import io.axscheduler.scheduler.ScanThread;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Instant;

/**
 * The node's schedule loop, on a thread of its own (not the shared tick pool, not the job scan): every
 * 0.4–0.6 s by default, with jitter so nodes do not scan in step, it fires due schedules, releases queued fires whose
 * job ended and arms fixed delays. A failing schedule is logged and retried at the next tick; it does not hold back
 * the others, since each is fired in a transaction of its own.
 */
@Component
public class ScanSchedules implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ScanSchedules.class);

    private final FireDueSchedules fire;
    private final ScanThread thread;
    private final int batchSize;
    private final boolean enabled;
    private final Clock clock;
    private volatile Instant lastCompletedPass;

    public ScanSchedules(FireDueSchedules fire, Clock clock,
                         @Value("${ax.scheduler.schedules.scan-min-interval-ms:400}") long minIntervalMs,
                         @Value("${ax.scheduler.schedules.scan-max-interval-ms:600}") long maxIntervalMs,
                         @Value("${ax.scheduler.schedules.batch-size:100}") int batchSize,
                         @Value("${ax.scheduler.scan.enabled:true}") boolean enabled) {
        if (batchSize < 1 || batchSize > 1000) throw new IllegalArgumentException("ax.scheduler.schedules.batch-size must be 1..1000");
        this.fire = fire;
        this.thread = new ScanThread("ax-schedules", minIntervalMs, maxIntervalMs, this::pass);
        this.batchSize = batchSize;
        this.enabled = enabled;
        this.clock = clock;
        this.lastCompletedPass = clock.instant();
    }

    /** When the last pass finished, failed schedules or not; health goes DOWN when this falls too far behind. */
    public Instant lastCompletedPass() {
        return lastCompletedPass;
    }

    /** One pass on the caller's thread; returns the jobs made. */
    public int scanOnce() {
        int made = 0;
        for (String id : fire.dueScheduleIds(batchSize)) {
            try {
                made += fire.fire(id);
            } catch (RuntimeException e) {
                log.warn("firing schedule {} failed; rolled back, retried at the next tick: {}", id, e.toString());
            }
        }
        try {
            made += fire.releaseQueued(batchSize);
            fire.armFixedDelays(batchSize);
        } catch (RuntimeException e) {
            log.warn("releasing queued fires or arming fixed delays failed; retried at the next tick: {}", e.toString());
        }
        lastCompletedPass = clock.instant();
        return made;
    }

    private boolean pass() {
        try {
            scanOnce();
        } catch (RuntimeException e) {
            log.warn("schedule scan failed; retried at the next tick: {}", e.toString());
        }
        return false;
    }

    @Override
    public void start() {
        if (!enabled) return;
        thread.start();
    }

    @Override
    public void stop() {
        thread.stop();
    }

    @Override
    public boolean isRunning() {
        return thread.isRunning();
    }

    /** Stops with the job scan, before Axon and the pool go down. */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE;
    }
}
