package io.axscheduler.scheduler.retention;

import io.axscheduler.scheduler.DatabaseTime;
import io.axscheduler.scheduler.SchedulerProperties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongToIntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.stereotype.Component;

/**
 * Runs the retention's checks every {@code ax.scheduler.retention.check-ms}, on a thread of its own: a check may take a
 * minute with a backlog, and the node's two shared scheduling threads run the lease expiry and cancel watch every
 * second or two. A check deletes the ended jobs past their retention ({@link PurgeFinishedJobs}), then the schedules'
 * fire records past it ({@link PruneScheduleFires}), then the resolved alerts ({@link PurgeResolvedAlerts}), all at
 * the database's time.
 */
@Component
class RetentionChecks implements SmartInitializingSingleton, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(RetentionChecks.class);

    private final PurgeFinishedJobs jobs;
    private final PruneScheduleFires fires;
    private final PurgeResolvedAlerts alerts;
    private final DatabaseTime databaseTime;
    private final SchedulerProperties.Retention settings;
    private ScheduledExecutorService checks;

    RetentionChecks(
            PurgeFinishedJobs jobs,
            PruneScheduleFires fires,
            PurgeResolvedAlerts alerts,
            DatabaseTime databaseTime,
            SchedulerProperties properties) {
        this.jobs = jobs;
        this.fires = fires;
        this.alerts = alerts;
        this.databaseTime = databaseTime;
        this.settings = properties.retention();
    }

    @Override
    public synchronized void afterSingletonsInstantiated() {
        if (settings.finishedJobs().isZero() || checks != null) return;
        checks = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ax-retention");
            t.setDaemon(true);
            return t;
        });
        checks.scheduleWithFixedDelay(this::check, settings.checkMs(), settings.checkMs(), TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void destroy() {
        // a batch cut off mid-transaction rolls back whole
        if (checks != null) checks.shutdownNow();
    }

    void check() {
        run("ended jobs", jobs::purgeOnce);
        run("records of schedules' fires", fires::pruneOnce);
        run("resolved alerts", alerts::purgeOnce);
    }

    /** One of the check's deletions; a failure is logged and left to the next check. */
    private void run(String what, LongToIntFunction deleteAt) {
        try {
            int n = deleteAt.applyAsInt(databaseTime.nowMs());
            if (n > 0) log.info("{} deleted past their retention of {}: {}", what, settings.finishedJobs(), n);
        } catch (RuntimeException e) {
            // the cause alone: Spring's own message repeats the statement, with a placeholder for each id of a batch
            log.warn(
                    "deleting {} past their retention failed; tried again at the next check: {}",
                    what,
                    NestedExceptionUtils.getMostSpecificCause(e).toString());
        }
    }
}
