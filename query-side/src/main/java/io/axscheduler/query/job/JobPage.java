package io.axscheduler.query.job;

import io.axscheduler.api.query.JobView;
import java.util.List;

/**
 * One page of {@code GET /api/v1/jobs}: newest first, with the count of all matching jobs; {@code next} continues
 * after this page as a keyset walk ({@code ?cursor=}), null on the last page.
 */
public record JobPage(List<JobView> items, int page, int size, long total, String next) {}
