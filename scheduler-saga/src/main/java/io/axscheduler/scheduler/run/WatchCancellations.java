package io.axscheduler.scheduler.run;

import io.axscheduler.scheduler.SchedulerProperties;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

/**
 * A cancel or a run timeout may be decided on any node; the node running the attempt learns of it here, from the
 * job_queue, and signals the handler to stop. One query per tick for all running attempts.
 */
@Component
public class WatchCancellations implements SchedulingConfigurer {

    private final DispatchClaimed dispatcher;
    private final NamedParameterJdbcTemplate jdbc;
    private final Duration every;

    public WatchCancellations(
            DispatchClaimed dispatcher, NamedParameterJdbcTemplate jdbc, SchedulerProperties properties) {
        this.dispatcher = dispatcher;
        this.jdbc = jdbc;
        this.every = Duration.ofMillis(properties.execution().cancelCheckMs());
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar tasks) {
        tasks.addFixedDelayTask(new FixedDelayTask(this::signalEndedAttempts, every, Duration.ZERO));
    }

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
