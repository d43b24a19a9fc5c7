package io.axscheduler.scheduler.run;

import io.axscheduler.scheduler.DatabaseUnreachable;
import io.axscheduler.scheduler.SchedulerProperties;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * A cancel or a run timeout may be decided on any node; the node running the attempt learns of it here, from the
 * job_queue, and signals the handler to stop. One query per tick for all running attempts.
 *
 * <p>On a thread of its own that stops after the job scan: a stopping node lets its running attempts finish for the
 * shutdown grace, and a cancel or a timeout decided meanwhile must still reach them (Spring's scheduled tasks are
 * cancelled as the context begins to close, before the grace).
 */
@Component
public class WatchCancellations implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(WatchCancellations.class);

    private final DispatchClaimed dispatcher;
    private final NamedParameterJdbcTemplate jdbc;
    private final Duration every;

    public WatchCancellations(
            DispatchClaimed dispatcher, NamedParameterJdbcTemplate jdbc, SchedulerProperties properties) {
        this.dispatcher = dispatcher;
        this.jdbc = jdbc;
        this.every = Duration.ofMillis(properties.execution().cancelCheckMs());
    }

    private volatile ScheduledExecutorService timer;

    @Override
    public void start() {
        ScheduledExecutorService started = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ax-watch-cancellations");
            t.setDaemon(true);
            return t;
        });
        started.scheduleWithFixedDelay(this::tick, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
        timer = started;
    }

    private void tick() {
        try {
            signalEndedAttempts();
        } catch (RuntimeException e) {
            // an outage is told once by the scans and the outcome writer; this one only waits it out
            if (DatabaseUnreachable.in(e))
                log.debug("could not check running attempts for cancels and timeouts: {}", e.toString());
            else log.warn("could not check running attempts for cancels and timeouts: {}", e.toString());
        }
    }

    @Override
    public void stop() {
        ScheduledExecutorService stopping = timer;
        if (stopping == null) return;
        stopping.shutdownNow();
        timer = null;
    }

    @Override
    public boolean isRunning() {
        return timer != null;
    }

    /** Stops after the job scan (Integer.MAX_VALUE - 1), whose stop waits out the running attempts' grace. */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 2;
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
