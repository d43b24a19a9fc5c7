package io.axscheduler.query.job;

import io.axscheduler.api.query.JobView;
import java.util.List;

/** A keyset page of {@code GET /api/v1/jobs?cursor=}: {@code next} is the cursor of the page after, null on the last. */
public record JobCursorPage(List<JobView> items, int size, String next) {}
