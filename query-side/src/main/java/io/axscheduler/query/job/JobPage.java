package io.axscheduler.query.job;

import io.axscheduler.api.query.JobView;
import java.util.List;

/** One page of {@code GET /api/v1/jobs}: newest first, with the count of all matching jobs. */
public record JobPage(List<JobView> items, int page, int size, long total) {}
