package io.axscheduler.scheduler.execute;

import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A cancel or a run timeout may be decided on any node; the node running the attempt learns of it here, from the
 * job_queue, and signals the handler to stop. One query per tick for all running attempts.
 */
@Component
public class WatchCancellations {

    private final DispatchClaimed dispatcher;
    private final NamedParameterJdbcTemplate jdbc;

    public WatchCancellations(DispatchClaimed dispatcher, NamedParameterJdbcTemplate jdbc) {
        this.dispatcher = dispatcher;
        this.jdbc = jdbc;
    }

    @Scheduled(fixedDelayString = "${ax.scheduler.execution.cancel-check-ms:1000}")
    public void signalEndedAttempts() {
        Map<String, RunningAttempt> running = new HashMap<>(dispatcher.running());
        if (running.isEmpty()) return;
        List<Map<String, Object>> rows = jdbc.queryForList(
                "SELECT job_id, status, attempt FROM job_queue WHERE job_id IN (:ids)",
                Map.of("ids", running.keySet()));
        for (Map<String, Object> row : rows) {
            RunningAttempt attempt = running.get((String) row.get("job_id"));
            boolean stillOurs = "RUNNING".equals(row.get("status"))
                    && ((Number) row.get("attempt")).intValue() == attempt.attempt();
            if (!stillOurs) attempt.cancel();
        }
    }
}
