package io.axscheduler.scheduler.observe;

import io.axscheduler.api.job.FailJob;
import io.axscheduler.api.problem.IllegalTransitionException;
import io.axscheduler.scheduler.DatabaseTime;
import io.axscheduler.scheduler.NodeProperties;
import io.axscheduler.scheduler.SchedulerCommands;
import io.axscheduler.scheduler.run.RunInProcess;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
 * run the job twice.) A process that starts under the id of a node still alive (two nodes given one
 * {@code ax.node.id}) must not fail that node's attempts: when the id's {@code ax_nodes} row was written within
 * {@code nodeSilentMs}, this waits for it to go silent (the earlier process is gone) or to be written again (another
 * live process: its attempts are left alone, and the clash is logged as an error).
 */
@Component
public class FailAttemptsOfEarlierRun implements SmartLifecycle {

    static final int BATCH = 500;
    private static final Logger log = LoggerFactory.getLogger(FailAttemptsOfEarlierRun.class);

    private final NamedParameterJdbcTemplate jdbc;
    private final SchedulerCommands commands;
    private final String node;
    private final long silentMs;
    private volatile boolean running;

    public FailAttemptsOfEarlierRun(
            NamedParameterJdbcTemplate jdbc,
            SchedulerCommands commands,
            NodeProperties node,
            ObserveProperties observe) {
        this.jdbc = jdbc;
        this.commands = commands;
        this.node = node.id();
        this.silentMs = observe.nodeSilentMs();
    }

    /** Fails this node's attempts left RUNNING by its earlier process; how many it failed. */
    public int failLeftOvers() {
        if (!hasRunning()) return 0;
        if (anotherProcessReports()) {
            log.error(
                    "another live process reports as node {} (its ax_nodes row is still being written): the attempts "
                            + "RUNNING under this id are left to it; give each node its own ax.node.id",
                    node);
            return 0;
        }
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

    private boolean hasRunning() {
        return !jdbc.queryForList(
                        "SELECT job_id FROM job_queue WHERE status = 'RUNNING' AND node = :node AND worker = :worker"
                                + " LIMIT 1",
                        Map.of("node", node, "worker", RunInProcess.WORKER),
                        String.class)
                .isEmpty();
    }

    /**
     * Whether a process other than this one keeps this node id's row of {@code ax_nodes} up to date: false once the
     * row is older than {@code silentMs} (database time), true when it is written again while this waits.
     */
    private boolean anotherProcessReports() {
        Long first = null;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(silentMs + 2_000);
        while (System.nanoTime() < deadline) {
            List<Map<String, Object>> row = jdbc.queryForList(
                    "SELECT reported_at, " + DatabaseTime.NOW_MS + " AS now FROM ax_nodes WHERE node_id = :node",
                    Map.of("node", node));
            if (row.isEmpty()) return false;
            long reported = ((Number) row.get(0).get("reported_at")).longValue();
            long now = ((Number) row.get(0).get("now")).longValue();
            if (now - reported > silentMs) return false;
            if (first == null) first = reported;
            else if (reported != first) return true;
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return true;
            }
        }
        return true;
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
