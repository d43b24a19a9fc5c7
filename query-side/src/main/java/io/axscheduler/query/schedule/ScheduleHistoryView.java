package io.axscheduler.query.schedule;

import io.axscheduler.query.history.HistoryEvent;
import java.util.List;

/**
 * {@code GET /api/v1/schedules/{id}/history?page=&size=}: one page of the schedule's event stream, oldest first (a
 * schedule gains an event a fire, so the whole stream can be millions); {@code hasMore} when a next page exists.
 */
public record ScheduleHistoryView(String scheduleId, int page, int size, boolean hasMore, List<HistoryEvent> events) {}
