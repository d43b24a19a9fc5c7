package io.axscheduler.scheduler.remote;

import io.axscheduler.api.job.CancelJob;
import io.axscheduler.scheduler.DatabaseTime;
import io.axscheduler.scheduler.SchedulerCommands;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

/**
 * A job bound to an executor app waits for a worker of that app in its namespace. One that has been due for longer
 * than {@code ax.scheduler.remote.no-worker-timeout} while no worker of its app is registered in its namespace (a
 * worker of another namespace never runs it) is given up: it is canceled
 * by the scheduler with a reason naming the app and the bound, recorded as its {@code JobCanceled} event (an operator
 * can re-run it once a worker is there). Without the bound it waited forever with no visible reason.
 */
@Component
public class AbandonWorkerlessJobs implements SchedulingConfigurer {

    static final int BATCH = 100;
    private static final Logger log = LoggerFactory.getLogger(AbandonWorkerlessJobs.class);

    private final NamedParameterJdbcTemplate jdbc;
    private final SchedulerCommands commands;
    private final Duration timeout;
    private final Duration every;

    public AbandonWorkerlessJobs(
            NamedParameterJdbcTemplate jdbc, SchedulerCommands commands, RemoteProperties properties) {
        this.jdbc = jdbc;
        this.commands = commands;
        this.timeout = properties.noWorkerTimeout();
        this.every = Duration.ofMillis(properties.noWorkerCheckMs());
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar tasks) {
        tasks.addFixedDelayTask(new FixedDelayTask(this::abandonWorkerless, every, every));
    }

    public void abandonWorkerless() {
        try {
            List<Map<String, Object>> waiting = jdbc.queryForList(
                    "SELECT j.job_id, j.executor_app, j.namespace FROM job_queue j WHERE j.claimable = 1"
                            + " AND j.executor_app IS NOT NULL AND j.run_at < " + DatabaseTime.NOW_MS + " - :timeout"
                            + " AND NOT EXISTS (SELECT 1 FROM workers w WHERE w.app = j.executor_app"
                            + " AND w.namespace = j.namespace) LIMIT :batch",
                    Map.of("timeout", timeout.toMillis(), "batch", BATCH));
            for (Map<String, Object> job : waiting) {
                String jobId = (String) job.get("job_id");
                String reason = "no worker of executorApp '" + job.get("executor_app") + "' registered in namespace '"
                        + job.get("namespace") + "' within "
                        + timeout.toMillis() + " ms of the job's due time (ax.scheduler.remote.no-worker-timeout)";
                try {
                    commands.sendAndWait(new CancelJob(jobId, reason));
                    log.warn("job {} given up: {}", jobId, reason);
                } catch (RuntimeException e) {
                    // claimed, canceled or re-run meanwhile: the next check sees it as it is then
                    log.debug("job {} was not given up: {}", jobId, e.toString());
                }
            }
        } catch (RuntimeException e) {
            log.warn("looking for jobs without workers failed; tried again at the next check: {}", e.toString());
        }
    }
}
