package io.axscheduler.scheduler.remote;

import org.slf4j.Logger;

/**
 * WARN lines of one kind, at most {@code perWindow} in each window of {@code windowMs}; the first line of the next
 * window says how many were left out. Meant for lines anyone can cause, so they cannot flood the log.
 */
final class RateLimitedLog {

    private final Logger log;
    private final int perWindow;
    private final long windowMs;
    private long windowStart;
    private int written;
    private long suppressed;

    RateLimitedLog(Logger log, int perWindow, long windowMs) {
        this.log = log;
        this.perWindow = perWindow;
        this.windowMs = windowMs;
    }

    void warn(String format, Object... args) {
        long left;
        synchronized (this) {
            long now = System.currentTimeMillis();
            if (now - windowStart >= windowMs) {
                windowStart = now;
                written = 0;
            }
            if (written >= perWindow) {
                suppressed++;
                return;
            }
            written++;
            left = suppressed;
            suppressed = 0;
        }
        if (left > 0) log.warn("{} more such lines were left out", left);
        log.warn(format, args);
    }
}
