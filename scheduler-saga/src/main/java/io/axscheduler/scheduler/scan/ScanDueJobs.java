package io.axscheduler.scheduler.scan;

import io.axscheduler.scheduler.SchedulerProperties;
import io.axscheduler.scheduler.execute.ClaimedJob;
import io.axscheduler.scheduler.execute.DispatchClaimed;
import io.axscheduler.scheduler.execute.JobExecutors;
import io.axscheduler.scheduler.worker.RemoteLanes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The node's scan loop, on a thread of its own: every 0.8–1.2 s (the jitter keeps nodes from scanning in step), at
 * once when this node created due work, and again as soon as a slot frees while a backlog remains. It claims only as
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
    private final Object signal = new Object();
    private boolean wakeRequested;
    private volatile boolean backlog;
    private volatile boolean running;
    private volatile boolean paused;
    private volatile Instant lastCompletedScan;
    private Thread thread;

    public ScanDueJobs(ClaimDueJobs claimDueJobs, JobExecutors executors, RemoteLanes remoteLanes, DispatchClaimed dispatcher,
                       SchedulerProperties properties, Clock clock) {
        this.claimDueJobs = claimDueJobs;
        this.executors = executors;
        this.remoteLanes = remoteLanes;
        this.dispatcher = dispatcher;
        this.properties = properties;
        this.clock = clock;
        this.lastCompletedScan = clock.instant();
        dispatcher.onSlotFreed(() -> {
            wake(); // due work may be waiting for exactly this slot; an idle queue costs one cheap scan
        });
    }

    /** Scan now rather than at the next tick. */
    public void wake() {
        synchronized (signal) {
            wakeRequested = true;
            signal.notifyAll();
        }
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
        wake();
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
        Map<String, Integer> free = executors.freeSlots();
        List<RemoteLanes.Lane> remote = remoteLanes.free(executors::runsInProcess);
        List<ClaimedJob> claimed = free.isEmpty() && remote.isEmpty() ? List.of() : claimDueJobs.claim(free, remote);
        claimed.forEach(dispatcher::dispatch);
        log.debug("scan: free {}, remote lanes {}, claimed {}", free, remote.size(), claimed.size());
        // a full batch, or a pool with no room left, probably left due work behind: scan again as soon as a slot frees
        backlog = claimed.size() >= properties.scan().batchSize()
                || executors.freeSlots().size() < executors.inProcessTypeCount();
        lastCompletedScan = clock.instant();
        return claimed.size();
    }

    private void loop() {
        while (running) {
            try {
                int claimed = scanOnce();
                if (claimed > 0 && backlog && !executors.freeSlots().isEmpty()) continue;
            } catch (RuntimeException e) {
                log.warn("scan failed; the claim batch was rolled back and is retried at the next scan: {}", e.toString());
                log.debug("scan failure", e);
            }
            pause();
        }
    }

    private void pause() {
        SchedulerProperties.Scan scan = properties.scan();
        long waitMs = ThreadLocalRandom.current().nextLong(scan.minIntervalMs(), scan.maxIntervalMs() + 1);
        long until = System.currentTimeMillis() + waitMs;
        synchronized (signal) {
            while (running && !wakeRequested) {
                long left = until - System.currentTimeMillis();
                if (left <= 0) break;
                try {
                    signal.wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            wakeRequested = false;
        }
    }

    @Override
    public void start() {
        if (!properties.scan().enabled()) {
            log.info("scanning is switched off on this node (ax.scheduler.scan.enabled=false)");
            return;
        }
        running = true;
        thread = new Thread(this::loop, "ax-scan");
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops claiming first, then lets the dispatcher finish or hand back what it holds. */
    @Override
    public void stop() {
        running = false;
        wake();
        if (thread != null) {
            try {
                thread.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        dispatcher.shutdown(properties.execution().shutdownGraceMs());
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Last to start and first to stop: claims end before Axon, the web server and the pool go down. */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE;
    }
}
