package io.axscheduler.scheduler.remote;

import io.axscheduler.api.job.CancelJob;
import io.axscheduler.api.schedule.HoldBack;
import io.axscheduler.scheduler.DatabaseTime;
import io.axscheduler.scheduler.SchedulerCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
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
 * A job no one can take waits for a worker: bound to an executor app, for a worker of that app registered in its
 * namespace with its type; not bound, of a type no node runs in process, for any worker registered in its namespace
 * with its type (a worker of another namespace never runs it). One that has been due for longer than
 * {@code ax.scheduler.remote.no-worker-timeout} while no one can take it ({@link HoldBack#TAKEN_BY_SOMEONE}) is given
 * up: it is canceled by the scheduler with a reason naming the app or type and the bound, recorded as its
 * {@code JobCanceled} event (an operator can re-run it once a worker is there). Without the bound it waited forever
 * with no visible reason.
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
            List<Map<String, Object>> waiting = waitingTooLong();
            for (Map<String, Object> job : waiting) {
                String jobId = (String) job.get("job_id");
                Object app = job.get("executor_app");
                String reason = (app == null
                                ? "no node runs job type '" + job.get("job_type") + "' and no worker registered in"
                                        + " namespace '" + job.get("namespace") + "' runs it"
                                : "no worker of executorApp '" + app + "' registered in namespace '"
                                        + job.get("namespace") + "' runs job type '" + job.get("job_type") + "'")
                        + " within " + timeout.toMillis()
                        + " ms of the job's due time (ax.scheduler.remote.no-worker-timeout)";
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

    /**
     * Up to {@value #BATCH} jobs due longer than the bound ago that no one can take, read where they can be: jobs
     * bound to an app from their own index, grouped first so that the worker check runs once per app, namespace and
     * type, then the jobs of the groups no worker takes; jobs bound to none only of the types no node runs. So a
     * backlog the nodes run is not read at every check. A large backlog of app-bound jobs that live workers take is
     * still read, from the index alone, to group it.
     */
    private List<Map<String, Object>> waitingTooLong() {
        String due = " AND run_at < " + DatabaseTime.NOW_MS + " - :timeout";
        Map<String, Object> p = new HashMap<>(Map.of("timeout", timeout.toMillis(), "batch", BATCH));
        List<Map<String, Object>> waiting = new ArrayList<>();
        List<Map<String, Object>> groups = jdbc.queryForList(
                // the groups are named job_queue for the shared condition's sake
                "SELECT executor_app, namespace, job_type FROM (SELECT waiting_app executor_app, namespace, job_type"
                        + " FROM job_queue WHERE " + WorkerlessJobs.BOUND + due
                        + " GROUP BY waiting_app, namespace, job_type) job_queue WHERE NOT "
                        + HoldBack.TAKEN_BY_SOMEONE + " LIMIT :batch",
                p);
        // one read a group, not one join: joined back in one statement, MariaDB 10.11 walked the waiting jobs of every
        // type first (AlertsIT counts the rows read)
        for (Map<String, Object> group : groups) {
            if (waiting.size() >= BATCH) return waiting;
            Map<String, Object> q = new HashMap<>(p);
            q.putAll(Map.of(
                    "app", group.get("executor_app"), "ns", group.get("namespace"), "type", group.get("job_type")));
            q.put("batch", BATCH - waiting.size());
            waiting.addAll(jdbc.queryForList(
                    "SELECT job_id, executor_app, namespace, job_type FROM job_queue WHERE claimable = 1"
                            + " AND waiting_app = :app AND namespace = :ns AND job_type = :type" + due + " AND NOT "
                            + HoldBack.TAKEN_BY_SOMEONE + " LIMIT :batch",
                    q));
        }
        if (waiting.size() >= BATCH) return waiting;
        List<String> types = WorkerlessJobs.typesNoNodeRuns(jdbc);
        if (types != null && types.isEmpty()) return waiting;
        p.put("batch", BATCH - waiting.size());
        if (types != null) p.put("types", types);
        waiting.addAll(jdbc.queryForList(
                "SELECT job_id, executor_app, namespace, job_type FROM job_queue WHERE claimable = 1"
                        + (types == null ? "" : " AND job_type IN (:types)") + " AND executor_app IS NULL" + due
                        + " AND NOT " + HoldBack.TAKEN_BY_SOMEONE + " LIMIT :batch",
                p));
        return waiting;
    }
}
