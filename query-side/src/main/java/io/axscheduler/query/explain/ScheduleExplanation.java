package io.axscheduler.query.explain;

import java.time.Instant;
import java.util.List;

/** The answer of {@code GET /api/v1/schedules/{id}/explain?at=}: what happened at or near {@code at}, and why. */
public record ScheduleExplanation(String scheduleId, Instant at, Instant fireTime, List<Reason> reasons) {}
