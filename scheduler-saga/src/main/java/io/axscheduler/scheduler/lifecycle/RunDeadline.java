package io.axscheduler.scheduler.lifecycle;

/**
 * The payload of a run deadline: which attempt it guards, so a late deadline cannot time out a newer attempt; when it
 * was due ({@code dueAtMs}, 0 in deadlines stored before it was kept); and whether it is already the grace period a
 * late deadline gives the attempt's outcome ({@code grace}); the attempt's {@code timeoutMs}, which its timeout's reason
 * names (0 in deadlines stored before it was kept).
 */
public record RunDeadline(int attempt, long dueAtMs, boolean grace, long timeoutMs) {}
