package io.axscheduler.query.job;

import io.axscheduler.api.query.JobView;
import io.axscheduler.query.history.HistoryEvent;
import java.time.Instant;
import java.util.List;

/** {@code GET /api/v1/jobs/{id}/history?asOf=}: the job as it stood at {@code asOf}, and the events that made it so. */
public record JobStateAsOf(String jobId, Instant asOf, JobView state, List<HistoryEvent> events) {}
