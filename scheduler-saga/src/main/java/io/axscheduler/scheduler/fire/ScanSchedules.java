package io.axscheduler.scheduler.fire;

import io.axscheduler.api.schedule.HoldBack;
import io.axscheduler.scheduler.DatabaseTime;
import io.axscheduler.scheduler.ScanThread;
import io.axscheduler.scheduler.SchedulerProperties;
import io.axscheduler.scheduler.claim.ScanDueJobs;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The node's schedule loop, on a thread of its own (not the shared tick pool, not the job scan): at the next fire
 * time less {@code fire-ahead-ms} (on a grid of half that; every node wakes for the same moment and {@code SKIP
 * LOCKED} parts them), every 0.4–0.6 s at the latest, with jitter, and at once again after a full batch, it fires due
 * schedules; at most every {@code scan-min-interval-ms} it also releases queued fires whose job ended and arms fixed
 * delays. Due schedules fire a batch to a transaction;
 * a batch that fails is fired again one schedule to a transaction, so a failing schedule is logged and retried at the
 * next tick without holding back the others.
 */
@Component
public class ScanSchedules implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ScanSchedules.class);

    private final FireDueSchedules fire;
    private final ScanThread thread;
    private final int batchSize;
    private final int fireThreads;
    private final boolean enabled;
    private ExecutorService firePool;
    private final Clock clock;
    private final Pacing pacing;
    /** Held types whose hold was logged: their catching up is logged too. */
    private final Set<String> announced = ConcurrentHashMap.newKeySet();

    private final DatabaseTime databaseTime;
    private final long minIntervalMs;
    private final long fireAheadMs;
    private volatile boolean paused;
    private volatile boolean backlog;
    private volatile Instant lastCompletedPass;
    /** When queued fires were last released and fixed delays armed (this JVM's clock). */
    private long lastUpkeepMs = Long.MIN_VALUE / 2;

    public ScanSchedules(
            FireDueSchedules fire, Clock clock, DatabaseTime databaseTime, SchedulerProperties properties) {
        SchedulerProperties.Schedules settings = properties.schedules();
        this.fireThreads = settings.fireThreads();
        this.fire = fire;
        this.databaseTime = databaseTime;
        this.minIntervalMs = settings.scanMinIntervalMs();
        this.fireAheadMs = settings.fireAheadMs();
        this.thread = new ScanThread(
                "ax-schedules", settings.scanMinIntervalMs(), settings.scanMaxIntervalMs(), clock, this::pass);
        this.batchSize = settings.batchSize();
        this.enabled = properties.scan().enabled();
        this.clock = clock;
        this.pacing = new Pacing(settings.holdBackAfterMs(), settings.scanMaxIntervalMs());
        this.lastCompletedPass = clock.instant();
    }

    /** When the last pass finished, failed schedules or not; health goes DOWN when this falls too far behind. */
    public Instant lastCompletedPass() {
        return lastCompletedPass;
    }

    /**
     * Stops firing until {@link #resumeScanning()}, as {@code ScanDueJobs.pauseScanning} stops claiming: for
     * maintenance, and for benchmarks that create schedules before the clock starts. Health stays UP; fire times
     * that pass meanwhile are misfires when scanning resumes, judged by each schedule's policy.
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
        thread.wake();
    }

    /** One pass on the caller's thread; returns the jobs made. */
    public int scanOnce() {
        if (paused) {
            backlog = false; // a backlog found before the pause must not keep the loop from pausing
            lastCompletedPass = clock.instant();
            return 0;
        }
        Map<String, Long> paced = pacedTypes();
        Set<String> held = paced.keySet();
        fire.heldNow(held);
        int made = firePaced(paced);
        FireDueSchedules.Fired first = fireBatch(held, null, batchSize);
        made += first.jobs();
        boolean full = first.full(batchSize);
        if (full && fireThreads > 1) {
            // a backlog: more batches at once, each on its own connection; SKIP LOCKED keeps them on distinct rows
            List<Future<FireDueSchedules.Fired>> more = new ArrayList<>(fireThreads);
            for (int i = 0; i < fireThreads; i++) more.add(firePool.submit(() -> fireBatch(held, null, batchSize)));
            full = false;
            for (Future<FireDueSchedules.Fired> batch : more) {
                try {
                    FireDueSchedules.Fired b = batch.get();
                    made += b.jobs();
                    full |= b.full(batchSize);
                } catch (ExecutionException e) {
                    log.warn(
                            "a parallel schedule batch failed; retried at the next tick: {}",
                            e.getCause().toString());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        backlog = full;
        // passes woken for each fire time come every few ms under load: the upkeep keeps the regular cadence
        if (clock.millis() - lastUpkeepMs >= minIntervalMs) {
            lastUpkeepMs = clock.millis();
            try {
                made += fire.releaseQueued(batchSize);
                fire.armFixedDelays(batchSize);
            } catch (RuntimeException e) {
                log.warn(
                        "releasing queued fires or arming fixed delays failed; retried at the next tick: {}",
                        e.toString());
            }
        }
        lastCompletedPass = clock.instant();
        return made;
    }

    /**
     * Wakes the loop when the next schedule's fire may be made (its time less {@code fire-ahead-ms}), not only at the
     * end of the pause, so that a fire is made on time. The moment goes up to the next multiple of half the look-ahead
     * (as the job scan's, {@link ScanDueJobs#wakeMoment}): schedules due every millisecond share a pass.
     */
    private void wakeForNextFire() {
        try {
            Long next = fire.nextFireAtMs();
            if (next != null) wakeFor(next);
        } catch (RuntimeException e) {
            log.debug("could not read the next fire time; the next pass comes after the pause: {}", e.toString());
        }
    }

    /** A schedule fires at {@code fireTimeMs} (database epoch ms): pass in time to make that fire. */
    public void wakeFor(long fireTimeMs) {
        thread.wakeAt(ScanDueJobs.wakeMoment(databaseTime.localMs(fireTimeMs), fireAheadMs));
    }

    /**
     * What each paced type may make, in batches of its own schedules (other paced types' left out), before the
     * batches of the types that fire freely; returns the jobs made. A batch is sized by the jobs a schedule made in the
     * one before (a late schedule may make several: FIRE_ALL). A type none of whose schedules is due any more, and
     * whose oldest job no longer waits past the bound, is caught up.
     */
    private int firePaced(Map<String, Long> paced) {
        int made = 0;
        for (Map.Entry<String, Long> type : paced.entrySet()) {
            Set<String> others = new HashSet<>(paced.keySet());
            others.remove(type.getKey());
            long left = type.getValue();
            double perSchedule = 1;
            while (left > 0) {
                int limit = (int) Math.max(1, Math.min(batchSize, (long) Math.ceil(left / perSchedule)));
                FireDueSchedules.Fired batch = fireBatch(others, type.getKey(), limit);
                pacing.made(type.getKey(), batch.jobs());
                made += batch.jobs();
                left -= Math.max(1, batch.jobs());
                if (batch.schedules() > 0) perSchedule = Math.max(1, (double) batch.jobs() / batch.schedules());
                if (!batch.full(limit)) break;
            }
            if (fire.dueScheduleIds(1, others, type.getKey()).isEmpty()
                    && pacing.caughtUp(type.getKey())
                    && announced.remove(type.getKey()))
                log.info("schedules of {} fire freely again: they caught up", HoldBack.describe(type.getKey()));
        }
        return made;
    }

    /**
     * One batch in one transaction, of type {@code only} unless null; when it fails, its schedules one by one, each in
     * its own (and the pass does not go again at once: what failed is retried at the next tick).
     */
    private FireDueSchedules.Fired fireBatch(Set<String> held, String only, int limit) {
        try {
            return fire.fireDue(limit, held, only);
        } catch (RuntimeException e) {
            log.debug("firing a batch of schedules failed; firing them one by one: {}", e.toString());
            int made = 0;
            for (String id : fire.dueScheduleIds(limit, held, only)) {
                try {
                    made += fire.fire(id);
                } catch (RuntimeException one) {
                    log.warn(
                            "firing schedule {} failed; rolled back, retried at the next tick: {}", id, one.toString());
                }
            }
            return new FireDueSchedules.Fired(0, made, 0);
        }
    }

    /**
     * The job types whose schedules are paced this pass ({@link Pacing}: those {@link FireDueSchedules#typesBehind()}
     * finds, and those still draining), with the jobs each may make; a type newly held is logged, as the shortfall it
     * means is otherwise seen only in {@code ax_schedules_behind} and the start lag. When the reads fail, the paced types stay
     * paced and make nothing this pass.
     */
    private Map<String, Long> pacedTypes() {
        Set<String> before = pacing.types();
        Map<String, Long> paced = new TreeMap<>();
        try {
            paced.putAll(pacing.budgets(fire.typesBehind(), fire::waiting, clock.millis()));
        } catch (RuntimeException e) {
            log.debug("could not tell which job types are behind; those held back stay so: {}", e.toString());
            for (String type : before) paced.put(type, 0L);
        }
        if (!paced.isEmpty()) log.debug("paced job types and the jobs each may make: {}", paced);
        // types leave only by catching up, which firePaced logs
        Set<String> newly = new TreeSet<>(paced.keySet());
        newly.removeAll(before);
        Set<String> scheduled = newly.isEmpty() ? Set.of() : withSchedules(newly);
        if (!scheduled.isEmpty()) {
            announced.addAll(scheduled);
            log.warn(
                    "schedules held back (namespace/job type): {}: their waiting jobs there are overdue beyond the"
                            + " bound; they fire only as fast as those jobs are claimed until the backlog is gone",
                    scheduled);
        }
        return paced;
    }

    /**
     * Of types newly held back, those with a schedule to hold: a backlog of jobs submitted one by one holds its type
     * too, which is worth no warning where no schedule makes that type. All of them when that cannot be read.
     */
    private Set<String> withSchedules(Set<String> keys) {
        try {
            return fire.withActiveSchedules(keys);
        } catch (RuntimeException e) {
            log.debug("could not tell which held types have schedules: {}", e.toString());
            return keys;
        }
    }

    /** Job types whose schedules are held back (paced) now, each in its namespace ({@link HoldBack#key}). */
    public Set<String> heldBack() {
        return pacing.types();
    }

    /** One pass of the loop; true when a full batch fired, so more may be due and the next pass follows at once. */
    private boolean pass() {
        try {
            scanOnce();
            if (!backlog && !paused) wakeForNextFire();
            return backlog;
        } catch (RuntimeException e) {
            log.warn("schedule scan failed; retried at the next tick: {}", e.toString());
            return false;
        }
    }

    @Override
    public void start() {
        if (!enabled) return;
        if (fireThreads > 1) {
            AtomicInteger n = new AtomicInteger();
            firePool = Executors.newFixedThreadPool(fireThreads, r -> {
                Thread t = new Thread(r, "ax-schedules-fire-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
        }
        thread.start();
    }

    /** The batches in flight finish with the pass that started them: the scan thread waits for them. */
    @Override
    public void stop() {
        thread.stop();
        if (firePool != null) firePool.shutdown();
    }

    @Override
    public boolean isRunning() {
        return thread.isRunning();
    }

    /**
     * First to stop, just before the job scan (whose pools the fires' started jobs run on), and before Axon and the
     * pool go down.
     */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE;
    }
}
