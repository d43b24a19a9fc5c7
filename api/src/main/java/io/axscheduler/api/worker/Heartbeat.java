package io.axscheduler.api.worker;

/**
 * A worker is alive and runs {@code inFlight} jobs right now (the scheduler's count is corrected to it); without a
 * count ({@code {}}, or no body) the scheduler keeps its own.
 */
public record Heartbeat(Integer inFlight) {

    /** As before the count could be left out: a worker library built against it still links. */
    public Heartbeat(int inFlight) {
        this(Integer.valueOf(inFlight));
    }
}
