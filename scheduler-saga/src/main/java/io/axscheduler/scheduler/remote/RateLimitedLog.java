package io.axscheduler.scheduler.remote;

import java.time.Clock;
import org.slf4j.Logger;

/**
 * WARN lines of one kind, at most {@code perWindow} in each window of {@code windowMs}; the first line of the next
 * window says how many were left out. Meant for lines anyone can cause, so they cannot flood the log.
 */
public final class RateLimitedLog {

    private final Logger log;
    private final int perWindow;
    private final long windowMs;
    private final Clock clock;
    private long windowStart = Long.MIN_VALUE;
    private int written;
    private long suppressed;

    public RateLimitedLog(Logger log, int perWindow, long windowMs, Clock clock) {
        this.log = log;
        this.perWindow = perWindow;
        this.windowMs = windowMs;
        this.clock = clock;
    }

    public void warn(String format, Object... args) {
        long left;
        synchronized (this) {
            long now = clock.millis();
            if (windowStart == Long.MIN_VALUE || now - windowStart >= windowMs) {
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
