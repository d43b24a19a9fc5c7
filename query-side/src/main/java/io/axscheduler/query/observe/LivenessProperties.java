package io.axscheduler.query.observe;

import io.axscheduler.api.worker.WorkerView;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The scheduler's settings the read side judges nodes and workers by, bound from the same {@code ax.scheduler.*} keys
 * as the scheduler side's own records (a side never imports another; deploy's {@code SettingsAgreeTest} checks the
 * defaults agree).
 *
 * @param health {@code ax.scheduler.health.*}
 * @param workers {@code ax.scheduler.workers.*}
 * @param schedules {@code ax.scheduler.schedules.*}
 * @param remote {@code ax.scheduler.remote.*}
 */
@ConfigurationProperties("ax.scheduler")
public record LivenessProperties(
        @DefaultValue Health health,
        @DefaultValue Workers workers,
        @DefaultValue Schedules schedules,
        @DefaultValue Remote remote) {

    /** @param noWorkerTimeout a job no one can take this long after it fell due is given up (canceled) */
    public record Remote(@DefaultValue("PT10M") java.time.Duration noWorkerTimeout) {}

    /**
     * @param holdBackAfterMs a job type whose head jobs have waited this long to be claimed has its schedules held
     *     back (0: never)
     */
    public record Schedules(@DefaultValue("3000") long holdBackAfterMs) {}

    /** @param scanStallMs a node whose scan has not completed for this long does not count as scanning */
    public record Health(@DefaultValue("30000") long scanStallMs) {
        public Health {
            // a stall limit shorter than a scan's own pause reads every node as stalled: health DOWN for good
            if (scanStallMs < 1000)
                throw new IllegalArgumentException("ax.scheduler.health.scan-stall-ms must be at least 1000");
        }
    }

    /**
     * @param heartbeatIntervalMs how often a worker heartbeats
     * @param missedHeartbeats heartbeats a worker may miss before it counts as gone
     */
    public record Workers(
            @DefaultValue("10000") long heartbeatIntervalMs,
            @DefaultValue("3") int missedHeartbeats) {

        /** Heard from longer ago than this, a worker is missing its heartbeats (SILENT), before it is removed. */
        public long quietMs() {
            return WorkerView.QUIET_AFTER_HEARTBEATS * heartbeatIntervalMs;
        }

        /** Silent this long, a worker is not live. */
        public long silenceMs() {
            return heartbeatIntervalMs * missedHeartbeats;
        }
    }
}
