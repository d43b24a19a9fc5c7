package io.axscheduler.scheduler.claim;

import io.axscheduler.api.job.TimeOutJob;
import io.axscheduler.api.job.TimeoutPhase;
import io.axscheduler.scheduler.DatabaseTime;
import io.axscheduler.scheduler.SchedulerCommands;
import io.axscheduler.scheduler.SchedulerProperties;
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
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A node that died between claiming a job and starting it leaves the job CLAIMED. Every node looks for claims whose
 * lease has run out (database time) and sends them back to waiting with {@code JobTimedOut(phase CLAIM)}: the job
 * never ran, so no retry is used. One batch per tick, all or nothing, like a claim.
 */
@Component
public class ExpireLeases implements SchedulingConfigurer {

    static final int BATCH = 200;
    private static final Logger log = LoggerFactory.getLogger(ExpireLeases.class);

    private final NamedParameterJdbcTemplate jdbc;
    private final TransactionTemplate transaction;
    private final SchedulerCommands commands;
    private final Duration every;

    public ExpireLeases(
            NamedParameterJdbcTemplate jdbc,
            TransactionTemplate transaction,
            SchedulerCommands commands,
            SchedulerProperties properties) {
        this.jdbc = jdbc;
        this.transaction = transaction;
        this.commands = commands;
        this.every = Duration.ofMillis(properties.scan().leaseCheckMs());
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar tasks) {
        tasks.addFixedDelayTask(new FixedDelayTask(this::releaseExpiredClaims, every, every));
    }

    public void releaseExpiredClaims() {
        try {
            Integer released = transaction.execute(tx -> {
                // job_queue's status index holds no lease_until (V12): the CLAIMED rows are read and sorted, unlocked,
                // and only the batch chosen from them is locked — a locking read of them all would hold every expired
                // claim, not just a batch, until this transaction ends
                List<String> candidates = jdbc.queryForList(
                        "SELECT job_id FROM job_queue WHERE status = 'CLAIMED' AND lease_until < " + DatabaseTime.NOW_MS
                                + " ORDER BY lease_until LIMIT :batch",
                        Map.of("batch", BATCH),
                        String.class);
                if (candidates.isEmpty()) return 0;
                List<Map<String, Object>> expired = jdbc.queryForList(
                        "SELECT job_id, attempt FROM job_queue WHERE job_id IN (:ids) AND status = 'CLAIMED' AND lease_until < "
                                + DatabaseTime.NOW_MS + " ORDER BY lease_until FOR UPDATE SKIP LOCKED",
                        Map.of("ids", candidates));
                for (Map<String, Object> row : expired) {
                    int claimedAttempt = ((Number) row.get("attempt")).intValue() + 1;
                    commands.sendHoldingRows(
                            new TimeOutJob((String) row.get("job_id"), claimedAttempt, TimeoutPhase.CLAIM));
                }
                return expired.size();
            });
            if (released != null && released > 0) log.info("released {} claims whose lease expired", released);
        } catch (RuntimeException e) {
            log.warn("releasing expired claims failed; retried at the next tick: {}", e.toString());
        }
    }
}
