package io.axscheduler.scheduler;

import java.time.Clock;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;

/**
 * A node's scan loop on a daemon thread of its own (never the shared tick pool): run a pass, then pause a jittered
 * interval — so nodes do not scan in step — unless the pass asks to go again at once or someone wakes it. Stopping
 * never interrupts the thread: an interrupt could land inside a JDBC call of a claim transaction.
 */
public final class ScanThread {

    static final int MAX_WAKE_TIMES = 10_000;

    private final String name;
    private final long minPauseMs;
    private final long maxPauseMs;
    private final BooleanSupplier pass;
    private final Object signal = new Object();
    private boolean wakeRequested;
    /** Moments (epoch ms, this JVM's clock) at which a pass is due, earliest first; guarded by {@code signal}. */
    private final TreeSet<Long> wakeTimes = new TreeSet<>();

    private volatile boolean running;
    private Thread thread;
    private final Clock clock;

    /** @param pass one pass of the loop; true to run the next pass at once instead of pausing */
    public ScanThread(String name, long minPauseMs, long maxPauseMs, Clock clock, BooleanSupplier pass) {
        if (minPauseMs < 10 || maxPauseMs < minPauseMs)
            throw new IllegalArgumentException(name + " pauses: 10 <= min <= max");
        this.name = name;
        this.minPauseMs = minPauseMs;
        this.maxPauseMs = maxPauseMs;
        this.pass = pass;
        this.clock = clock;
    }

    public void start() {
        running = true;
        thread = new Thread(this::loop, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Ends the loop after the pass in progress, waiting up to 30 s for it. */
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
    }

    public boolean isRunning() {
        return running;
    }

    /** Run the next pass now rather than at the end of the pause. */
    public void wake() {
        synchronized (signal) {
            wakeRequested = true;
            signal.notifyAll();
        }
    }

    /**
     * Run a pass at {@code epochMs} (this JVM's clock), besides the regular ones: work known to fall due then starts
     * on time instead of at the next pause's end. At most {@value #MAX_WAKE_TIMES} moments are kept, the earliest;
     * work behind a dropped one is found by the regular passes.
     */
    public void wakeAt(long epochMs) {
        synchronized (signal) {
            wakeTimes.add(epochMs);
            if (wakeTimes.size() > MAX_WAKE_TIMES) wakeTimes.pollLast();
            signal.notifyAll();
        }
    }

    private void loop() {
        while (running) {
            if (!pass.getAsBoolean()) pause();
        }
    }

    private void pause() {
        long until = clock.millis() + ThreadLocalRandom.current().nextLong(minPauseMs, maxPauseMs + 1);
        synchronized (signal) {
            while (running && !wakeRequested) {
                long now = clock.millis();
                if (!wakeTimes.isEmpty() && wakeTimes.first() <= now) {
                    wakeTimes.headSet(now, true).clear();
                    break;
                }
                long left = (wakeTimes.isEmpty() ? until : Math.min(until, wakeTimes.first())) - now;
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
}
