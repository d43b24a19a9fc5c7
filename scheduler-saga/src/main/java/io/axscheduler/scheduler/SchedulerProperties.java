package io.axscheduler.scheduler;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Every bound of a scheduler node, under {@code ax.scheduler}. Scan thread, dispatch pools and the database pool are
 * sized separately so that a stuck job type or a slow database cannot take the others down with it.
 */
@ConfigurationProperties("ax.scheduler")
public record SchedulerProperties(
        @DefaultValue Scan scan,
        @DefaultValue Execution execution,
        @DefaultValue Health health,
        @DefaultValue Jobs jobs,
        @DefaultValue Schedules schedules,
        @DefaultValue Retention retention) {

    /**
     * @param minIntervalMs  shortest pause between scans (jitter spreads the nodes apart)
     * @param maxIntervalMs  longest pause between scans
     * @param batchSize      most jobs one scan claims, in one transaction
     * @param agingAfterMs   a job due this long ago is claimed before higher-priority work, so it cannot starve
     * @param leaseMs        a claimed job not started by then goes back to waiting
     * @param leaseCheckMs   how often each node looks for expired claim leases
     * @param enabled        false keeps this node from claiming anything (it still serves the API)
     * @param claimAheadMs   a job for this node's pools is claimed and started up to this long before it is due, and
     *                       its handler called at the due time: the claim's transaction is then not part of the
     *                       start's delay. JobStarted precedes the handler by at most this much (0: claim when due)
     */
    public record Scan(
            @DefaultValue("800") long minIntervalMs,
            @DefaultValue("1200") long maxIntervalMs,
            @DefaultValue("200") int batchSize,
            @DefaultValue("60000") long agingAfterMs,
            @DefaultValue("30000") long leaseMs,
            @DefaultValue("2000") long leaseCheckMs,
            @DefaultValue("true") boolean enabled,
            @DefaultValue("0") long claimAheadMs) {
        public Scan {
            if (minIntervalMs < 10 || maxIntervalMs < minIntervalMs)
                throw new IllegalArgumentException("scan intervals: 10 <= min <= max");
            if (batchSize < 1 || batchSize > 1000)
                throw new IllegalArgumentException("ax.scheduler.scan.batch-size must be 1..1000");
            if (leaseMs < 1000) throw new IllegalArgumentException("ax.scheduler.scan.lease-ms must be at least 1000");
            if (leaseCheckMs < 100 || leaseCheckMs > 600_000)
                throw new IllegalArgumentException("ax.scheduler.scan.lease-check-ms must be 100..600000");
            // a job started ahead holds a pool thread until it is due
            if (claimAheadMs < 0 || claimAheadMs > 1000)
                throw new IllegalArgumentException("ax.scheduler.scan.claim-ahead-ms must be 0..1000");
        }
    }

    /**
     * @param threadsPerType  concurrent runs per job type on this node, unless a handler asks for its own number
     * @param shutdownGraceMs how long a stopping node lets running jobs finish before it hands them back
     * @param cancelCheckMs   how often running jobs are checked for a cancel or timeout decided elsewhere
     */
    /**
     * @param reportQueue outcomes waiting to be written; a handler that finds it full waits for room
     * @param reportBatch outcomes written in one transaction at most
     * @param reportGatherMs how long the writer waits from an outcome's arrival for more to join its transaction
     *     (0: write at once), unless the batch fills first
     */
    public record Execution(
            @DefaultValue("16") int threadsPerType,
            @DefaultValue("10000") long shutdownGraceMs,
            @DefaultValue("1000") long cancelCheckMs,
            @DefaultValue("4096") int reportQueue,
            @DefaultValue("500") int reportBatch,
            @DefaultValue("10") long reportGatherMs) {
        public Execution {
            if (threadsPerType < 1 || threadsPerType > 1000)
                throw new IllegalArgumentException("ax.scheduler.execution.threads-per-type must be 1..1000");
            if (cancelCheckMs < 100 || cancelCheckMs > 60_000)
                throw new IllegalArgumentException("ax.scheduler.execution.cancel-check-ms must be 100..60000");
            if (reportQueue < 1)
                throw new IllegalArgumentException("ax.scheduler.execution.report-queue must be positive");
            if (reportBatch < 1 || reportBatch > 1000)
                throw new IllegalArgumentException("ax.scheduler.execution.report-batch must be 1..1000");
            if (reportGatherMs < 0 || reportGatherMs > 1000)
                throw new IllegalArgumentException("ax.scheduler.execution.report-gather-ms must be 0..1000");
        }
    }

    /** @param scanStallMs the node reports DOWN when no scan completed for this long */
    public record Health(@DefaultValue("30000") long scanStallMs) {}

    /**
     * @param builtinsEnabled     the {@code noop}, {@code sleep} and {@code flaky} types
     * @param httpAllowedHosts    what the {@code http} type may call: host names, {@code *.domain}, {@code *}, and
     *                            CIDR ranges (needed for any loopback, private or link-local address); empty
     *                            refuses every call
     * @param httpMaxResponseBytes most of a response body the {@code http} type reads
     * @param httpMaxRedirects    redirects the {@code http} type follows, each checked as the first URL
     * @param httpConnectTimeoutMs connect timeout of the {@code http} type
     * @param httpReadTimeoutMs   response timeout of the {@code http} type
     * @param maxSleepMs          longest {@code sleep} accepted
     */
    public record Jobs(
            @DefaultValue("true") boolean builtinsEnabled,
            List<String> httpAllowedHosts,
            @DefaultValue("2000") long httpConnectTimeoutMs,
            @DefaultValue("10000") long httpReadTimeoutMs,
            @DefaultValue("1048576") int httpMaxResponseBytes,
            @DefaultValue("5") int httpMaxRedirects,
            @DefaultValue("3600000") long maxSleepMs) {

        /** The setting of {@code httpAllowedHosts}, as errors name it. */
        public static final String HTTP_ALLOWED_HOSTS = "ax.scheduler.jobs.http-allowed-hosts";

        public Jobs {
            // read at binding, so a bad entry stops the start with the setting named, not a bean's stack trace
            io.axscheduler.scheduler.net.AddressPolicy.of(HTTP_ALLOWED_HOSTS, httpAllowedHosts);
        }
    }

    /**
     * @param scanMinIntervalMs  shortest pause between passes of the schedule scan
     * @param scanMaxIntervalMs  longest pause between passes of the schedule scan
     * @param batchSize          schedules fired in one transaction at most
     * @param fireThreads        schedule batches fired in parallel, each in its own transaction
     * @param misfireThresholdMs a fire time older than this at the scan is missed; the misfire policy decides
     * @param fireAllMax         FIRE_ALL fires at most this many missed times; the rest are skipped
     * @param fireAheadMs        a fire's job is made this long before its time, due at the exact fire time
     * @param holdBackAfterMs    while the oldest waiting job of a type is overdue by more than this, schedules of
     *                           that type do not fire: the backlog of made jobs stays bounded, and the late fires
     *                           are made when the type catches up, as their misfire policy says (0: never hold back)
     * @param startDueFires      a fire's job due within {@code claim-ahead-ms} when it is made that this
     *                           node's pools run is claimed and started in the fire's own transaction, not by a
     *                           later claim pass
     */
    public record Schedules(
            @DefaultValue("400") long scanMinIntervalMs,
            @DefaultValue("600") long scanMaxIntervalMs,
            @DefaultValue("100") int batchSize,
            @DefaultValue("2") int fireThreads,
            @DefaultValue("5000") long misfireThresholdMs,
            @DefaultValue("100") int fireAllMax,
            @DefaultValue("20") long fireAheadMs,
            @DefaultValue("3000") long holdBackAfterMs,
            @DefaultValue("true") boolean startDueFires) {
        public Schedules {
            if (batchSize < 1 || batchSize > 1000)
                throw new IllegalArgumentException("ax.scheduler.schedules.batch-size must be 1..1000");
            if (fireThreads < 1 || fireThreads > 16)
                throw new IllegalArgumentException("ax.scheduler.schedules.fire-threads must be 1..16");
            if (fireAllMax < 1 || fireAllMax > 10_000)
                throw new IllegalArgumentException("ax.scheduler.schedules.fire-all-max must be 1..10000");
            // beyond the misfire threshold a fire made ahead could not be told from one made late
            if (fireAheadMs < 0 || fireAheadMs > 60_000)
                throw new IllegalArgumentException("ax.scheduler.schedules.fire-ahead-ms must be 0..60000");
            if (misfireThresholdMs < 0)
                throw new IllegalArgumentException("ax.scheduler.schedules.misfire-threshold-ms must be 0 or more");
            if (holdBackAfterMs < 0)
                throw new IllegalArgumentException("ax.scheduler.schedules.hold-back-after-ms must be 0 or more");
        }
    }

    /**
     * @param finishedJobs how long a job that ended for good (succeeded, canceled, or failed or timed out with no
     *                     retry left) is kept after its last change; then its events, snapshot, job_queue row, key
     *                     and dispatches are deleted, and it is an unknown job. 0 keeps every job for good
     * @param checkMs      how often each node looks for jobs past their retention
     * @param batchSize    jobs deleted in one transaction
     * @param maxPerCheck  jobs one check deletes at most; the rest wait for the next check
     */
    public record Retention(
            @DefaultValue("30d") Duration finishedJobs,
            @DefaultValue("60000") long checkMs,
            @DefaultValue("500") int batchSize,
            @DefaultValue("50000") int maxPerCheck) {
        public Retention {
            // a job's end is stamped by its node's clock and compared with the database's, and the event processors
            // (the lifecycle saga, the console's statistics) must have read a job's last events before they go: an
            // hour covers any clock a node may run with and any lag short of an outage
            if (!finishedJobs.isZero() && finishedJobs.compareTo(Duration.ofHours(1)) < 0)
                throw new IllegalArgumentException(
                        "ax.scheduler.retention.finished-jobs must be 0 (keep every job) or at least 1h");
            if (checkMs < 1000)
                throw new IllegalArgumentException("ax.scheduler.retention.check-ms must be at least 1000");
            if (batchSize < 1 || batchSize > 1000)
                throw new IllegalArgumentException("ax.scheduler.retention.batch-size must be 1..1000");
            if (maxPerCheck < batchSize)
                throw new IllegalArgumentException(
                        "ax.scheduler.retention.max-per-check must be at least ax.scheduler.retention.batch-size");
        }
    }
}
