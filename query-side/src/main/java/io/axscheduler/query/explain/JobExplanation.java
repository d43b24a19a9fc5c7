package io.axscheduler.query.explain;

import java.util.List;

/** The answer of {@code GET /api/v1/jobs/{id}/explain}. */
public record JobExplanation(String jobId, String status, List<Reason> reasons) {}
