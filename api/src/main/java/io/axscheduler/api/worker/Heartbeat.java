package io.axscheduler.api.worker;

/** A worker is alive and runs {@code inFlight} jobs right now (the scheduler's count is corrected to it). */
public record Heartbeat(int inFlight) {}
