package io.axscheduler.query.job;

import io.axscheduler.api.job.JobStatus;
import io.axscheduler.api.query.JobView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Job lists of the console and of {@code GET /api/v1/jobs?cursor=}: keyset pages over job_queue's indexes, so page
 * 10,000 costs what page 1 does and nothing is counted. Sorted by creation (newest or oldest first), the key (created_at, job_id) of the page's last row is the
 * cursor of the next. Status and type together are one range of the (status, job_type, created_at) index; a status
 * alone is one range per type of that status (found by a loose scan of the same index), merged; a type alone one
 * range per status, merged; no filter the created_at index; a schedule its own index. A user who may see some
 * namespaces only gets the same ranges once per namespace, on the (namespace, status, job_type, created_at) and
 * (namespace, created_at) indexes, merged: never a walk of other namespaces' rows.
 */
@Component
public class JobListing {

    public static final int DEFAULT_SIZE = 50;
    static final int MAX_TYPES = 200;
    static final int MAX_NAMESPACES = 100;
    private static final List<String> EVERY_STATUS =
            Arrays.stream(JobStatus.values()).map(Enum::name).toList();

    private final NamedParameterJdbcTemplate jdbc;

    public JobListing(NamedParameterJdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * The filters of one page; null fields are absent. {@code namespace} is the filter as asked, {@code namespaces}
     * what the user may see of it (null: every namespace). {@code cursor} is "createdAtMillis:jobId".
     */
    public record Query(
            String namespace,
            Set<String> namespaces,
            JobStatus status,
            String jobType,
            String scheduleId,
            Instant from,
            Instant to,
            String search,
            boolean oldestFirst,
            String cursor,
            int size) {

        /** The API's keyset page: newest first, by status, type and schedule only. */
        public static Query newestFirst(
                Set<String> namespaces, JobStatus status, String jobType, String scheduleId, String cursor, int size) {
            return new Query(null, namespaces, status, jobType, scheduleId, null, null, null, false, cursor, size);
        }
    }

    /** A page and the cursor of the next (null on the last page). */
    public record Page(List<JobView> jobs, String next) {}

    public Page page(Query q) {
        if (q.namespaces() != null && q.namespaces().isEmpty()) return new Page(List.of(), null);
        if (q.search() != null) {
            return new Page(
                    search(q.search()).stream()
                            .filter(j ->
                                    q.namespaces() == null || q.namespaces().contains(j.namespace()))
                            .toList(),
                    null);
        }
        // every namespace at once, or each namespace the user may see as ranges of its own
        List<String> namespaces = q.namespaces() == null ? Collections.singletonList(null) : sorted(q.namespaces());
        List<JobView> rows = new ArrayList<>();
        for (String ns : namespaces) {
            String status = q.status() == null ? null : q.status().name();
            if (q.scheduleId() != null || (status != null && q.jobType() != null)) {
                rows.addAll(range(q, ns, status, q.jobType()));
            } else if (status != null) {
                for (String type : typesOf(ns, status)) rows.addAll(range(q, ns, status, type));
            } else if (q.jobType() != null) {
                for (String s : EVERY_STATUS) rows.addAll(range(q, ns, s, q.jobType()));
            } else {
                rows.addAll(range(q, ns, null, null));
            }
        }
        Comparator<JobView> order = Comparator.comparing(JobView::createdAt).thenComparing(JobView::jobId);
        rows.sort(q.oldestFirst() ? order : order.reversed());
        if (rows.size() <= q.size()) return new Page(rows, null);
        List<JobView> page = new ArrayList<>(rows.subList(0, q.size()));
        return new Page(page, Cursor.after(page.get(page.size() - 1)));
    }

    private static List<String> sorted(Set<String> namespaces) {
        return namespaces.stream().sorted().limit(MAX_NAMESPACES).toList();
    }

    private List<JobView> search(String idOrKey) {
        Map<String, Object> p = Map.of("v", idOrKey);
        List<JobView> found = new ArrayList<>(
                jdbc.query("SELECT " + JobRows.COLUMNS + " FROM job_queue WHERE job_id = :v", p, JobRows::toView));
        // job keys are kept in job_keys, unique within a namespace: a range of its primary key (key, namespace), then
        // each job's row
        found.addAll(jdbc.query(
                "SELECT " + JobRows.COLUMNS + " FROM job_queue WHERE job_id IN"
                        + " (SELECT job_id FROM job_keys WHERE job_key = :v) AND job_id <> :v",
                p,
                JobRows::toView));
        return found;
    }

    /**
     * The job types that have rows in {@code status}, by one dive into the status index per type, each its own
     * statement: MariaDB answers a DISTINCT over the range, or the same dives as a recursive statement, by reading
     * every entry of the range (seconds for a million SUCCEEDED jobs). At most {@link #MAX_TYPES}.
     */
    private List<String> typesOf(String namespace, String status) {
        List<String> types = new ArrayList<>();
        String after = "";
        while (types.size() < MAX_TYPES) {
            MapSqlParameterSource p = new MapSqlParameterSource("status", status).addValue("after", after);
            if (namespace != null) p.addValue("ns", namespace);
            List<String> next = jdbc.queryForList(
                    "SELECT job_type FROM job_queue WHERE " + (namespace == null ? "" : "namespace = :ns AND ")
                            + "status = :status AND job_type > :after ORDER BY job_type LIMIT 1",
                    p,
                    String.class);
            if (next.isEmpty()) break;
            after = next.get(0);
            types.add(after);
        }
        return types;
    }

    private List<JobView> range(Query q, String namespace, String status, String jobType) {
        MapSqlParameterSource p = new MapSqlParameterSource();
        return jdbc.query(rangeSql(q, namespace, status, jobType, p, ""), p, JobRows::toView);
    }

    /** One range's statement; its parameters are added to {@code p}, named with {@code prefix}. */
    private static String rangeSql(
            Query q, String namespace, String status, String jobType, MapSqlParameterSource p, String prefix) {
        StringBuilder where = new StringBuilder(" WHERE 1 = 1");
        if (namespace != null) {
            where.append(" AND namespace = :").append(prefix).append("ns");
            p.addValue(prefix + "ns", namespace);
        }
        if (status != null) {
            where.append(" AND status = :").append(prefix).append("status");
            p.addValue(prefix + "status", status);
        }
        if (jobType != null) {
            where.append(" AND job_type = :").append(prefix).append("jobType");
            p.addValue(prefix + "jobType", jobType);
        }
        if (q.scheduleId() != null) {
            where.append(" AND schedule_id = :scheduleId");
            p.addValue("scheduleId", q.scheduleId());
        }
        if (q.from() != null) {
            where.append(" AND created_at >= :from");
            p.addValue("from", q.from().toEpochMilli());
        }
        if (q.to() != null) {
            where.append(" AND created_at < :to");
            p.addValue("to", q.to().toEpochMilli());
        }
        Cursor c = Cursor.parse(q.cursor());
        if (c != null) {
            String op = q.oldestFirst() ? ">" : "<";
            where.append(" AND created_at ")
                    .append(op)
                    .append("= :cAt AND (created_at ")
                    .append(op)
                    .append(" :cAt OR job_id ")
                    .append(op)
                    .append(" :cId)");
            p.addValue("cAt", c.createdAt()).addValue("cId", c.jobId());
        }
        String dir = q.oldestFirst() ? "ASC" : "DESC";
        p.addValue("limit", q.size() + 1);
        return "SELECT " + JobRows.COLUMNS + " FROM job_queue" + where + " ORDER BY created_at " + dir + ", job_id "
                + dir + " LIMIT :limit";
    }

    /**
     * Where a page starts: after the job created at {@code createdAt} with the id {@code jobId}, written
     * "createdAtMillis:jobId". The one definition of the format, for the console's links and the API's {@code next}.
     */
    public record Cursor(long createdAt, String jobId) {

        private static final Pattern FORMAT = Pattern.compile("(\\d{1,18}):([A-Za-z0-9._-]{1,100})");

        /** The cursor of the page that starts after {@code last}. */
        public static String after(JobView last) {
            return last.createdAt().toEpochMilli() + ":" + last.jobId();
        }

        /** Null when {@code raw} is absent or not a cursor this class wrote. */
        public static Cursor parse(String raw) {
            if (raw == null) return null;
            Matcher m = FORMAT.matcher(raw);
            return m.matches() ? new Cursor(Long.parseLong(m.group(1)), m.group(2)) : null;
        }
    }
}
