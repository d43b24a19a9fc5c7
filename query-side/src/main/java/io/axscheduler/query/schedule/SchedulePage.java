package io.axscheduler.query.schedule;

import io.axscheduler.api.schedule.ScheduleView;
import java.util.List;

/** One page of {@code GET /api/v1/schedules}: newest first, with the count of all matching schedules. */
public record SchedulePage(List<ScheduleView> items, int page, int size, long total) {}
