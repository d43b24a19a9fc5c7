package io.axscheduler.query.job;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * The due time of the job that has waited longest to be claimed, by namespace. {@code MIN(run_at) … GROUP BY
 * namespace} reads every waiting job's index entry (MariaDB does not skip through the groups), a second and more at
 * a million waiting jobs, and every node asks it at each gauge refresh. Walking the claim index's namespaces instead
 * reads one entry a namespace: the first in due order after the last namespace found.
 */
public final class OldestDue {

    /** Namespaces walked at most; past that, the grouped query reads every waiting job as before. */
    static final int MAX_NAMESPACES_WALKED = 1000;

    private static final String NEXT = "SELECT namespace, run_at FROM job_queue WHERE claimable = 1"
            + " AND namespace > :after ORDER BY namespace, run_at LIMIT 1";

    private OldestDue() {}

    /** Each namespace with a claimable job, with the earliest due time among them, in namespace order. */
    public static Map<String, Long> byNamespace(NamedParameterJdbcTemplate jdbc) {
        Map<String, Long> oldest = new LinkedHashMap<>();
        String after = "";
        while (true) {
            if (oldest.size() == MAX_NAMESPACES_WALKED) return grouped(jdbc);
            var next = jdbc.queryForList(NEXT, Map.of("after", after));
            if (next.isEmpty()) return oldest;
            after = (String) next.get(0).get("namespace");
            oldest.put(after, ((Number) next.get(0).get("run_at")).longValue());
        }
    }

    /** The earliest due time of any claimable job; null when none waits. */
    public static Long overall(NamedParameterJdbcTemplate jdbc) {
        return byNamespace(jdbc).values().stream().min(Long::compare).orElse(null);
    }

    private static Map<String, Long> grouped(NamedParameterJdbcTemplate jdbc) {
        Map<String, Long> oldest = new LinkedHashMap<>();
        jdbc.query(
                "SELECT namespace, MIN(run_at) FROM job_queue WHERE claimable = 1 GROUP BY namespace ORDER BY namespace",
                Map.of(),
                rs -> {
                    oldest.put(rs.getString(1), rs.getLong(2));
                });
        return oldest;
    }
}
