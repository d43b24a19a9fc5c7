package io.axscheduler.query.job;

import io.axscheduler.query.history.HistoryEvent;
import java.util.List;

/** {@code GET /api/v1/jobs/{id}/history}: the job's whole event stream. */
public record JobHistoryView(String jobId, List<HistoryEvent> events) {}
