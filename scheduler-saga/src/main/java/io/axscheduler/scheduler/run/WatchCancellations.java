package io.axscheduler.scheduler.run;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

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
        List<RunningAttempt> running = List.copyOf(dispatcher.running());
        if (running.isEmpty()) return;
        Set<String> jobIds = running.stream().map(RunningAttempt::jobId).collect(Collectors.toSet());
        Map<String, Integer> runningAttemptOf = new HashMap<>();
        jdbc.query(
                "SELECT job_id, status, attempt FROM job_queue WHERE job_id IN (:ids)", Map.of("ids", jobIds), rs -> {
                    if ("RUNNING".equals(rs.getString("status")))
                        runningAttemptOf.put(rs.getString("job_id"), rs.getInt("attempt"));
                });
        for (RunningAttempt attempt : running) {
            if (!Integer.valueOf(attempt.attempt()).equals(runningAttemptOf.get(attempt.jobId()))) attempt.cancel();
        }
    }
}
