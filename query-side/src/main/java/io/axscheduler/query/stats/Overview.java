package io.axscheduler.query.stats;

import io.axscheduler.query.observe.ScanningPauses;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/v1/stats/overview}: what the scheduler is doing now and how it has done, as the console shows it.
 * {@code counts} are exact, but for statuses named in {@code countsAsOf}, whose figure is a periodic full count taken
 * at that instant (see {@link StatusCounts}).
 */
public record Overview(
        Instant at,
        String namespace,
        Map<String, Long> counts,
        Map<String, Instant> countsAsOf,
        List<WaitingType> waitingByType,
        Long oldestWaitingMs,
        List<Running> runningByNodeAndType,
        StartLag startLag,
        List<Throughput> perMinute,
        List<Throughput> perHour,
        List<Failures> failuresByType24h,
        List<NodeRow> nodes,
        List<WorkerRow> workers,
        SchedulesBehind schedulesBehind) {

    /** Jobs waiting (WAITING and RETRY_WAITING) of one type; {@code oldestDueAt} is the earliest due time among them. */
    public record WaitingType(String jobType, long waiting, Instant oldestDueAt) {}

    public record Running(String node, String jobType, long claimed, long running) {}

    /** Start minus due over the last {@code windowMinutes}, as bucket upper bounds (never below the true value). */
    public record StartLag(int windowMinutes, long starts, Long p50Ms, Long p99Ms) {}

    public record Throughput(Instant at, long created, long succeeded, long failed, long timedOut, long canceled) {}

    public record Failures(String jobType, long failed, long timedOut) {}

    /** The health of a node no longer seen. */
    public static final String GONE = "GONE";

    /**
     * {@code alive}: seen within the last {@link StatsQueries#NODE_ALIVE_MS}; {@code health}: what it last reported
     * while alive, {@link #GONE} once it is not; {@code scanning}: whether it claims jobs and fires schedules (false
     * while paused by {@code /api/v1/admin/scanning/pause} or switched off; null when it has no node row);
     * {@code pausedBy}, {@code pausedAt}: the admin who paused it since it started, and when ({@code ScanningPaused}
     * in the admin trail), null otherwise.
     */
    public record NodeRow(
            String nodeId,
            Instant startedAt,
            Instant lastSeen,
            boolean alive,
            String health,
            Instant lastScan,
            Boolean scanning,
            String pausedBy,
            Instant pausedAt,
            long claimed,
            long running) {

        /** This row with who paused the node, and when. */
        NodeRow withPause(ScanningPauses.Pause pause) {
            return new NodeRow(
                    nodeId,
                    startedAt,
                    lastSeen,
                    alive,
                    health,
                    lastScan,
                    scanning,
                    pause.by(),
                    pause.at(),
                    claimed,
                    running);
        }
    }

    public record WorkerRow(
            String workerId,
            String namespace,
            String app,
            String address,
            Instant lastHeartbeat,
            int inFlight,
            int capacity,
            boolean coolingDown,
            boolean silent) {}

    /** Active schedules whose next fire time passed more than {@code ax.observe.schedule-behind-ms} ago. */
    public record SchedulesBehind(long count, List<Behind> oldest) {}

    public record Behind(String scheduleId, String name, Instant nextFireTime, long behindMs) {}
}
