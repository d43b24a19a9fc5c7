package io.axscheduler.scheduler.claim;

import io.axscheduler.api.Causes;
import io.axscheduler.scheduler.ClaimedJob;
import io.axscheduler.scheduler.DatabaseTime;
import io.axscheduler.scheduler.NodeMetrics;
import io.axscheduler.scheduler.ScanThread;
import io.axscheduler.scheduler.SchedulerProperties;
import io.axscheduler.scheduler.remote.RemoteLanes;
import io.axscheduler.scheduler.run.DispatchClaimed;
import io.axscheduler.scheduler.run.JobExecutors;
import io.axscheduler.scheduler.run.ReportOutcomes;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.axonframework.modelling.command.ConcurrencyException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The node's scan loop, on a thread of its own: every 0.8–1.2 s (the jitter keeps nodes from scanning in step), at
 * once when this node created due work, at the due time of work this node created for later, and again as soon as a
 * slot frees while a backlog remains. It claims only as
 * many jobs as the pools have room for; the rest stays in the database for any node.
 */
@Component
public class ScanDueJobs implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ScanDueJobs.class);

    /**
     * How long after a pass that skipped a busy job the next one runs: a pass every 50 ms at most for as long as the
     * job stays busy.
     */
    static final long BUSY_RETRY_MS = 50;

    private final ClaimDueJobs claimDueJobs;
    private final JobExecutors executors;
    private final RemoteLanes remoteLanes;
    private final DispatchClaimed dispatcher;
    private final SchedulerProperties properties;
    private final Clock clock;
    private final DatabaseTime databaseTime;
    private final ReportOutcomes outcomes;
    private final ScanThread thread;
    private final NodeMetrics metrics;
    /**
     * Job types whose pool the last pass left without room while due work of theirs may remain: a slot of theirs that
     * frees wakes the next pass.
     */
    private final Set<String> waitingForSlot = ConcurrentHashMap.newKeySet();
    /** The last pass claimed nothing because outcomes were behind: the next written batch lets it go on. */
    private volatile boolean waitingForOutcomes;

    private volatile boolean paused;
    private volatile Instant lastCompletedScan;

    public ScanDueJobs(
            ClaimDueJobs claimDueJobs,
            JobExecutors executors,
            RemoteLanes remoteLanes,
            DispatchClaimed dispatcher,
            ReportOutcomes outcomes,
            SchedulerProperties properties,
            DatabaseTime databaseTime,
            Clock clock,
            NodeMetrics metrics) {
        this.databaseTime = databaseTime;
        this.metrics = metrics;
        this.claimDueJobs = claimDueJobs;
        this.executors = executors;
        this.remoteLanes = remoteLanes;
        this.dispatcher = dispatcher;
        this.properties = properties;
        this.clock = clock;
        this.outcomes = outcomes;
        this.lastCompletedScan = clock.instant();
        this.thread = new ScanThread(
                "ax-scan", properties.scan().minIntervalMs(), properties.scan().maxIntervalMs(), clock, this::pass);
        // only what held the last pass back wakes the next one: a freed slot or a written batch otherwise finds
        // nothing that the pass did not already claim, and costs a claim transaction per job
        dispatcher.onSlotFreed(jobType -> {
            if (waitingForSlot.contains(jobType)) wake();
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
     * This node made work of {@code jobType} (any type when null) for {@code executorApp} (this node's pools when null)
     * due at {@code dueAt}: scan when the database's clock reaches it — or, for a job this node's pools run, the claim
     * look-ahead before it — so it starts on time, not at the next tick. Jobs claimed ahead share their passes: the
     * moment is put off to the next multiple of half the look-ahead, so jobs due every millisecond make a pass every
     * 10 ms (by default) with ten jobs in its claim, not a pass each, and each is still claimed at least half the
     * look-ahead before it is due.
     */
    public void wakeAt(String jobType, String executorApp, Instant dueAt) {
        boolean runsHere = jobType != null && executorApp == null && executors.runsInProcess(jobType);
        long at = wakeMoment(
                databaseTime.localMs(dueAt.toEpochMilli()),
                runsHere ? properties.scan().claimAheadMs() : 0);
        claimDueJobs.expect(jobType, at);
        thread.wakeAt(at);
    }

    /**
     * When to scan for a job due at {@code dueMs} that may be claimed up to {@code aheadMs} early: at the first
     * multiple of half the look-ahead from which the claim can take it (just past {@code dueMs - aheadMs}), so at
     * least half the look-ahead before it is due. Without a look-ahead: just past the due time.
     */
    public static long wakeMoment(long dueMs, long aheadMs) {
        long earliest = dueMs + 1 - aheadMs;
        long grid = aheadMs / 2;
        return grid > 1 ? Math.floorDiv(earliest + grid - 1, grid) * grid : earliest;
    }

    /**
     * Stops claiming until {@link #resumeScanning()} (the node keeps serving the API and running what it holds):
     * for maintenance, and for benchmarks that fill the queue before the clock starts. Health stays UP.
     */
    public void pauseScanning() {
        paused = true;
    }

    /** Paused by {@code pauseScanning()}: claims nothing though its loop runs. */
    public boolean isPaused() {
        return paused;
    }

    public void resumeScanning() {
        paused = false;
        wake(null);
    }

    /** When the last scan finished; health goes DOWN when this falls too far behind. */
    public Instant lastCompletedScan() {
        return lastCompletedScan;
    }

    /**
     * Whether the last pass left the type's pool full with due work of it possibly behind: those jobs go first, so a
     * fire's job of the type waits its turn in the claim scan rather than taking the next free slot.
     */
    public boolean backlogged(String jobType) {
        return waitingForSlot.contains(jobType);
    }

    /** Runs one scan on the caller's thread and returns how many jobs it claimed. */
    public int scanOnce() {
        return scan().claimed();
    }

    /**
     * What one pass did: the jobs it claimed, and whether it probably left due work behind that there is room for
     * now, so the next pass should follow at once.
     */
    private record Pass(int claimed, boolean goAgain) {}

    private Pass scan() {
        if (paused) {
            lastCompletedScan = clock.instant();
            metrics.scanSkipped(lastCompletedScan.toEpochMilli());
            return new Pass(0, false);
        }
        long startNanos = System.nanoTime();
        // while outcomes wait to be written, more claims would only lengthen the wait — past a job's run deadline,
        // which would then time out an attempt that succeeded. The flag is up before the check: a batch written
        // between the two still wakes the next pass.
        waitingForOutcomes = true;
        boolean behind = outcomes.behind();
        waitingForOutcomes = behind;
        // the slots are taken before the claim, of the types it may find work of: a fire starting its due jobs
        // meanwhile takes none of them
        Set<String> looked = behind
                ? Set.of()
                : executors.inProcessTypes().stream()
                        .filter(claimDueJobs::mayFind)
                        .collect(Collectors.toSet());
        Map<String, Integer> free = executors.takeFreeSlots(looked);
        List<RemoteLanes.Lane> remote;
        ClaimDueJobs.Claim claim;
        try {
            remote = remoteLanes.free(executors::runsInProcess);
            claim = free.isEmpty() && remote.isEmpty() ? ClaimDueJobs.Claim.NONE : claimDueJobs.claim(free, remote);
        } catch (RuntimeException e) {
            executors.releaseSlots(free);
            throw e;
        }
        List<ClaimedJob> claimed = claim.jobs();
        // a job skipped as busy is usually free a moment later: try again then, not a whole pause later
        if (claim.leftBusy()) thread.wakeAt(clock.millis() + BUSY_RETRY_MS);
        executors.releaseSlots(unused(free, claimed));
        dispatcher.dispatch(claimed);
        log.debug("scan: free {}, remote lanes {}, claimed {}", free, remote.size(), claimed.size());
        // a type that took all the room its pool had (or had none) probably left due work behind: scan again at once
        // if it has room now, or as soon as one of its slots frees
        Set<String> full = behind ? Set.of() : filledTypes(looked, free, claimed);
        Set<String> withRoom = executors.freeSlots().keySet();
        waitingForSlot.clear();
        full.stream().filter(type -> !withRoom.contains(type)).forEach(waitingForSlot::add);
        // a slot freed between the look at the pools and the flag found the flag down: this second look wakes for it
        if (waitingForSlot.stream().anyMatch(executors.freeSlots()::containsKey)) wake();
        lastCompletedScan = clock.instant();
        metrics.scanned(System.nanoTime() - startNanos, claimed.size(), lastCompletedScan.toEpochMilli());
        return new Pass(
                claimed.size(),
                claimed.size() >= properties.scan().batchSize() || full.stream().anyMatch(withRoom::contains));
    }

    /** The slots taken for the claim that it started no job on, per type. */
    private static Map<String, Integer> unused(Map<String, Integer> taken, List<ClaimedJob> claimed) {
        Map<String, Integer> unused = new HashMap<>(taken);
        for (ClaimedJob job : claimed) {
            if (job.started()) unused.merge(job.jobType(), -1, Integer::sum);
        }
        return unused;
    }

    /**
     * In-process types the pass looked at (those whose lanes were not drained) that started as many jobs as their pool
     * had room for, or had no room to claim any.
     */
    private Set<String> filledTypes(Set<String> looked, Map<String, Integer> free, List<ClaimedJob> claimed) {
        Map<String, Long> started = claimed.stream()
                .filter(ClaimedJob::started)
                .collect(Collectors.groupingBy(ClaimedJob::jobType, Collectors.counting()));
        return looked.stream()
                .filter(type -> started.getOrDefault(type, 0L) >= free.getOrDefault(type, 0))
                .collect(Collectors.toSet());
    }

    /** One pass of the loop; true when it probably left due work there is room for, so the next one follows at once. */
    private boolean pass() {
        try {
            return scan().goAgain();
        } catch (RuntimeException e) {
            if (Causes.any(e, ConcurrencyException.class)) {
                // a job of the batch got its next event from another node or command first (a worker's outcome, a
                // cancel): nothing is wrong, and the next pass sees the job as it is now
                log.info(
                        "a claim batch met a job changed meanwhile; rolled back and retried at the next scan: {}",
                        e.toString());
            } else {
                log.warn(
                        "scan failed; the claim batch was rolled back and is retried at the next scan: {}",
                        e.toString());
            }
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

    /**
     * Among the last to start and first to stop: claims end before Axon, the web server and the pool go down; the
     * schedule loop, whose fires may start jobs here, stops just before.
     */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 1;
    }
}
