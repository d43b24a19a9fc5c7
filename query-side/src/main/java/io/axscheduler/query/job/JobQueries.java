package io.axscheduler.query.job;

import io.axscheduler.api.job.JobStatus;
import io.axscheduler.api.query.FindJob;
import io.axscheduler.api.query.JobView;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.axonframework.queryhandling.QueryHandler;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;

/** Reads jobs from the job_queue read model. */
@Component
public class JobQueries {

    private static final List<String> EVERY_STATUS =
            Arrays.stream(JobStatus.values()).map(Enum::name).toList();

    private final NamedParameterJdbcTemplate jdbc;

    public JobQueries(NamedParameterJdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @QueryHandler
    public Optional<JobView> handle(FindJob query) {
        return jdbc
                .query(
                        "SELECT " + JobRows.COLUMNS + " FROM job_queue WHERE job_id = :jobId",
                        Map.of("jobId", query.jobId()),
                        JobRows::toView)
                .stream()
                .findFirst();
    }

    public JobPage list(JobListRequest request) {
        return list(request, null);
    }

    /** A page of the rows in {@code namespaces}; {@code null} means every namespace, an empty set none. */
    public JobPage list(JobListRequest request, java.util.Set<String> namespaces) {
        StringBuilder where = new StringBuilder(" WHERE 1 = 1");
        if (namespaces != null) {
            where.append(namespaces.isEmpty() ? " AND 1 = 0" : " AND namespace IN (:namespaces)");
        }
        MapSqlParameterSource params = new MapSqlParameterSource();
        if (namespaces != null && !namespaces.isEmpty()) params.addValue("namespaces", namespaces);
        if (request.status() != null) {
            where.append(" AND status = :status");
            params.addValue("status", request.status().name());
        } else if (request.jobType() != null) {
            // the type's rows in the (status, job_type, created_at) index: one range per status
            where.append(" AND status IN (:statuses)");
            params.addValue("statuses", EVERY_STATUS);
        }
        if (request.jobType() != null) {
            where.append(" AND job_type = :jobType");
            params.addValue("jobType", request.jobType());
        }
        if (request.scheduleId() != null) {
            where.append(" AND schedule_id = :scheduleId");
            params.addValue("scheduleId", request.scheduleId());
        }
        Long total = jdbc.queryForObject("SELECT COUNT(*) FROM job_queue" + where, params, Long.class);
        params.addValue("limit", request.size()).addValue("offset", request.offset());
        var items = jdbc.query(
                "SELECT " + JobRows.COLUMNS + " FROM job_queue" + where
                        + " ORDER BY created_at DESC, job_id DESC LIMIT :limit OFFSET :offset",
                params,
                JobRows::toView);
        long all = total == null ? 0 : total;
        boolean more = !items.isEmpty() && request.offset() + items.size() < all;
        String next = more ? JobListing.Cursor.after(items.get(items.size() - 1)) : null;
        return new JobPage(items, request.page(), request.size(), all, next);
    }
}
