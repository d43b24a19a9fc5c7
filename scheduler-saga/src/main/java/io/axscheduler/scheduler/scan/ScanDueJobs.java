package io.axscheduler.scheduler.scan;

import io.axscheduler.scheduler.DatabaseTime;
import io.axscheduler.scheduler.ScanThread;
import io.axscheduler.scheduler.SchedulerProperties;
import io.axscheduler.scheduler.execute.ClaimedJob;
import io.axscheduler.scheduler.execute.DispatchClaimed;
import io.axscheduler.scheduler.execute.JobExecutors;
import io.axscheduler.scheduler.execute.ReportOutcomes;
import io.axscheduler.scheduler.worker.RemoteLanes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * The node's scan loop, on a thread of its own: every 0.8–1.2 s (the jitter keeps nodes from scanning in step), at
 * once when this node created due work, at the due time of work this node created for later, and again as soon as a
 * slot frees while a backlog remains. It claims only as
 * many jobs as the pools have room for; the rest stays in the database for any node.
 */
@Component
public class ScanDueJobs implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ScanDueJobs.class);

    private final ClaimDueJobs claimDueJobs;
    private final JobExecutors executors;
    private final RemoteLanes remoteLanes;
    private final DispatchClaimed dispatcher;
    private final SchedulerProperties properties;
    private final Clock clock;
    private final DatabaseTime databaseTime;
    private final ReportOutcomes outcomes;
    private final ScanThread thread;
    private volatile boolean backlog;
    /** The last pass left a pool without room: a slot that frees may be what due work waits for. */
    private volatile boolean waitingForSlot;
    /** The last pass claimed nothing because outcomes were behind: the next written batch lets it go on. */
    private volatile boolean waitingForOutcomes;
    private volatile boolean paused;
    private volatile Instant lastCompletedScan;
    private final AtomicLong claimPasses = new AtomicLong();

    public ScanDueJobs(ClaimDueJobs claimDueJobs, JobExecutors executors, RemoteLanes remoteLanes, DispatchClaimed dispatcher,
                       ReportOutcomes outcomes, SchedulerProperties properties, DatabaseTime databaseTime, Clock clock) {
        this.databaseTime = databaseTime;
        this.claimDueJobs = claimDueJobs;
        this.executors = executors;
        this.remoteLanes = remoteLanes;
        this.dispatcher = dispatcher;
        this.properties = properties;
        this.clock = clock;
        this.outcomes = outcomes;
        this.lastCompletedScan = clock.instant();
        this.thread = new ScanThread("ax-scan", properties.scan().minIntervalMs(), properties.scan().maxIntervalMs(), this::pass);
        // only what held the last pass back wakes the next one: a freed slot or a written batch otherwise finds
        // nothing that the pass did not already claim, and costs a claim transaction per job (W3 made three a fire)
        dispatcher.onSlotFreed(() -> {
            if (waitingForSlot) wake();
        });
        outcomes.onWritten(() -> {
            if (waitingForOutcomes) wake();
        });
    }

    /** Scan now rather than at the next tick. */
    public void wake() {
        thread.wake();
    }

    /** This node made work of {@code jobType} (any type when null) that is due now: scan for it at once. */
    public void wake(String jobType) {
        claimDueJobs.expect(jobType, 0);
        thread.wake();
    }

    /**
     * This node made work of {@code jobType} (any type when null) due at {@code dueAt}: scan when the database's clock
     * reaches it, so it starts on time, not at the next tick.
     */
    public void wakeAt(String jobType, Instant dueAt) {
        long at = databaseTime.localMs(dueAt.toEpochMilli()) + 1;
        claimDueJobs.expect(jobType, at);
        thread.wakeAt(at);
    }

    /**
     * Stops claiming until {@link #resumeScanning()} (the node keeps serving the API and running what it holds):
     * for maintenance, and for benchmarks that fill the queue before the clock starts. Health stays UP.
     */
    public void pauseScanning() {
        paused = true;
    }

    public void resumeScanning() {
        paused = false;
        wake(null);
    }

    /** Claim transactions this node has run since it started, whatever they found. */
    public long claimPasses() {
        return claimPasses.get();
    }

    /** When the last scan finished; health goes DOWN when this falls too far behind. */
    public Instant lastCompletedScan() {
        return lastCompletedScan;
    }

    /** Runs one scan on the caller's thread and returns how many jobs it claimed. */
    public int scanOnce() {
        if (paused) {
            lastCompletedScan = clock.instant();
            return 0;
        }
        // while outcomes wait to be written, more claims would only lengthen the wait — past a job's run deadline,
        // which would then time out an attempt that succeeded. The flag is up before the check: a batch written
        // between the two still wakes the next pass.
        waitingForOutcomes = true;
        boolean behind = outcomes.behind();
        waitingForOutcomes = behind;
        Map<String, Integer> free = behind ? Map.of() : executors.freeSlots();
        List<RemoteLanes.Lane> remote = remoteLanes.free(executors::runsInProcess);
        List<ClaimedJob> claimed = List.of();
        if (!free.isEmpty() || !remote.isEmpty()) {
            claimPasses.incrementAndGet();
            claimed = claimDueJobs.claim(free, remote);
        }
        dispatcher.dispatch(claimed);
        log.debug("scan: free {}, remote lanes {}, claimed {}", free, remote.size(), claimed.size());
        // a full batch, or a lane that took all the room its pool had, probably left due work behind: scan again at
        // once while there is room, or as soon as a slot frees
        int roomy = executors.freeSlots().size();
        waitingForSlot = roomy < executors.inProcessTypeCount();
        backlog = claimed.size() >= properties.scan().batchSize() || tookAllRoom(free, claimed) || waitingForSlot;
        // a slot freed between the count and the flag saw the flag down: this second look wakes the pass for it
        if (waitingForSlot && executors.freeSlots().size() > roomy) wake();
        lastCompletedScan = clock.instant();
        return claimed.size();
    }

    /** Some type with room got as many jobs as it had room for, or had no room to begin with. */
    private boolean tookAllRoom(Map<String, Integer> free, List<ClaimedJob> claimed) {
        if (free.size() < executors.inProcessTypeCount()) return true;
        Map<String, Long> started = claimed.stream().filter(ClaimedJob::started)
                .collect(Collectors.groupingBy(ClaimedJob::jobType, Collectors.counting()));
        return free.entrySet().stream().anyMatch(room -> started.getOrDefault(room.getKey(), 0L) >= room.getValue());
    }

    /** One pass of the loop; true when it claimed and room is left, so the next pass should follow at once. */
    private boolean pass() {
        try {
            int claimed = scanOnce();
            return claimed > 0 && backlog && !executors.freeSlots().isEmpty();
        } catch (RuntimeException e) {
            log.warn("scan failed; the claim batch was rolled back and is retried at the next scan: {}", e.toString());
            log.debug("scan failure", e);
            return false;
        }
    }

    @Override
    public void start() {
        if (!properties.scan().enabled()) {
            log.info("scanning is switched off on this node (ax.scheduler.scan.enabled=false)");
            return;
        }
        thread.start();
    }

    /** Stops claiming first, then lets the dispatcher finish or hand back what it holds. */
    @Override
    public void stop() {
        thread.stop();
        dispatcher.shutdown(properties.execution().shutdownGraceMs());
    }

    @Override
    public boolean isRunning() {
        return thread.isRunning();
    }

    /** Last to start and first to stop: claims end before Axon, the web server and the pool go down. */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE;
    }
}
