package io.axscheduler.scheduler.run;

import io.axscheduler.api.job.FailJob;
import io.axscheduler.api.problem.IllegalTransitionException;
import io.axscheduler.scheduler.NodeProperties;
import io.axscheduler.scheduler.SchedulerCommands;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * A node killed while attempts ran in its own pools (SIGKILL, a crash, the machine gone) leaves them RUNNING: nothing
 * is left to report their outcome, and each would wait for its run deadline ({@code timeoutMs}, up to a day) before
 * it is retried. When the node starts again under the same id, those attempts are certainly over — the process that
 * ran them is gone — so before this process claims or fires anything it fails each of them, naming the restart, and
 * their retry policies take over at once. (A node that never comes back leaves its attempts to their run deadlines:
 * a silent node may only be cut off from the database while its handlers still run, and a retry elsewhere would then
 * run the job twice.) Node ids must be unique among live nodes, as for claims.
 */
@Component
public class FailAttemptsOfEarlierRun implements SmartLifecycle {

    static final int BATCH = 500;
    private static final Logger log = LoggerFactory.getLogger(FailAttemptsOfEarlierRun.class);

    private final NamedParameterJdbcTemplate jdbc;
    private final SchedulerCommands commands;
    private final String node;
    private volatile boolean running;

    public FailAttemptsOfEarlierRun(NamedParameterJdbcTemplate jdbc, SchedulerCommands commands, NodeProperties node) {
        this.jdbc = jdbc;
        this.commands = commands;
        this.node = node.id();
    }

    /** Fails this node's attempts left RUNNING by its earlier process; how many it failed. */
    public int failLeftOvers() {
        int failed = 0;
        String after = "";
        while (true) {
            List<Map<String, Object>> left = jdbc.queryForList(
                    "SELECT job_id, attempt FROM job_queue WHERE status = 'RUNNING' AND node = :node"
                            + " AND worker = :worker AND job_id > :after ORDER BY job_id LIMIT :batch",
                    Map.of("node", node, "worker", RunInProcess.WORKER, "after", after, "batch", BATCH));
            for (Map<String, Object> row : left) {
                String jobId = (String) row.get("job_id");
                int attempt = ((Number) row.get("attempt")).intValue();
                try {
                    commands.sendAndWait(new FailJob(
                            jobId,
                            attempt,
                            node + " restarted before the attempt finished (its process ended without an outcome)",
                            0));
                    failed++;
                } catch (IllegalTransitionException e) {
                    // ended meanwhile (its run deadline, an operator): nothing to do
                } catch (RuntimeException e) {
                    log.warn(
                            "job {} attempt {}: left RUNNING by this node's earlier process, not failed now ({}); "
                                    + "its run deadline times it out",
                            jobId,
                            attempt,
                            e.toString());
                }
                after = jobId;
            }
            if (left.size() < BATCH) return failed;
        }
    }

    @Override
    public void start() {
        running = true;
        try {
            int failed = failLeftOvers();
            if (failed > 0) {
                log.warn(
                        "failed {} attempt(s) that this node's earlier process left running; retried by their policies",
                        failed);
            }
        } catch (RuntimeException e) {
            log.warn(
                    "could not look for attempts this node's earlier process left running; their run deadlines time "
                            + "them out: {}",
                    e.toString());
        }
    }

    @Override
    public void stop() {
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Before the job scan ({@code MAX_VALUE - 1}) and the schedule scan start anything in this process's pools. */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 2;
    }
}
