package io.axscheduler.query.job;

import io.axscheduler.api.job.JobStatus;
import io.axscheduler.api.query.JobView;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

/** job_queue rows as {@link JobView}s; params stay in the table, the view does not show them. */
public final class JobRows {

    public static final String COLUMNS =
            "job_id, job_key, job_type, status, priority, run_at, attempt, max_retries, node, "
                    + "worker, created_at, updated_at, last_error, result, schedule_id";

    private JobRows() {}

    public static JobView toView(ResultSet rs, int rowNum) throws SQLException {
        return new JobView(
                rs.getString("job_id"),
                rs.getString("job_key"),
                rs.getString("job_type"),
                JobStatus.valueOf(rs.getString("status")),
                rs.getInt("priority"),
                Instant.ofEpochMilli(rs.getLong("run_at")),
                rs.getInt("attempt"),
                rs.getInt("max_retries"),
                rs.getString("node"),
                rs.getString("worker"),
                Instant.ofEpochMilli(rs.getLong("created_at")),
                Instant.ofEpochMilli(rs.getLong("updated_at")),
                rs.getString("last_error"),
                rs.getString("result"),
                rs.getString("schedule_id"));
    }
}
