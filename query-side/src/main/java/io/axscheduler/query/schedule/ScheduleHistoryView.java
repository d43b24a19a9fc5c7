package io.axscheduler.query.schedule;

import io.axscheduler.query.history.HistoryEvent;
import java.util.List;

/** {@code GET /api/v1/schedules/{id}/history}: the schedule's whole event stream. */
public record ScheduleHistoryView(String scheduleId, List<HistoryEvent> events) {}
