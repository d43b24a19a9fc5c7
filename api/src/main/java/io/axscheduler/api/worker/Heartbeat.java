package io.axscheduler.api.worker;

/**
 * A worker is alive and runs {@code inFlight} jobs right now (the scheduler's count is corrected to it); without a
 * count ({@code {}}, or no body) the scheduler keeps its own.
 */
public record Heartbeat(Integer inFlight) {}
