package io.axscheduler.worker;

import java.util.concurrent.atomic.AtomicInteger;

/** Waiting for a count of things in progress to reach zero, as a stopping worker does. */
final class Drain {

    private Drain() {}

    /** Sleeps until {@code count} is zero or the clock reaches {@code deadlineMs}; an interrupt ends the wait. */
    static void untilZero(AtomicInteger count, long deadlineMs) {
        while (count.get() > 0 && System.currentTimeMillis() < deadlineMs) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
