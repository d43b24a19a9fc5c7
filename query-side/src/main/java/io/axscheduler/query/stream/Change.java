package io.axscheduler.query.stream;

import java.time.Instant;

/**
 * One change of a job or a schedule as {@code GET /api/v1/stream} sends it: {@code kind} {@code job} or
 * {@code schedule}, the event's type ({@code JobStarted}, {@code SchedulePaused}, …), the status it leads to when the
 * event alone says so, and the schedule a job was made by when known.
 */
public record Change(
        String kind, String id, String event, String status, String scheduleId, String namespace, Instant at) {}
