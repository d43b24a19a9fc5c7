package io.axscheduler.bench.peers;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerBuilder;
import com.github.kagkarlsson.scheduler.jdbc.JdbcCustomization;
import com.github.kagkarlsson.scheduler.jdbc.MariaDBJdbcCustomization;
import com.github.kagkarlsson.scheduler.jdbc.MySQL8JdbcCustomization;
import com.github.kagkarlsson.scheduler.task.ExecutionComplete;
import com.github.kagkarlsson.scheduler.task.SchedulableInstance;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.PlainScheduleAndData;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTaskWithPersistentSchedule;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import com.github.kagkarlsson.scheduler.task.schedule.Schedule;
import java.io.Serializable;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import javax.sql.DataSource;

/** db-scheduler polling its own table, with either of its two polling strategies. */
final class DbSchedulerPeer implements Peer {

    enum Strategy {
        /** The strategy db-scheduler documents for MariaDB: fetch candidates, lock each on execute by its version. */
        FETCH,
        /** SELECT … FOR UPDATE SKIP LOCKED through the MySQL 8 dialect: MariaDB has SKIP LOCKED since 10.6. */
        LOCK_AND_FETCH,
        /** Lock-and-fetch through db-scheduler's own MariaDB dialect, which refuses it when the scheduler is built. */
        LOCK_AND_FETCH_MARIADB
    }

    private final Strategy strategy;
    private final long pollMs = Settings.number("DBS_POLL_MS", 100);
    private final boolean fixedDelay =
            Settings.text("DBS_W3_SCHEDULE", "fixed-rate").equals("fixed-delay");
    private final OneTimeTask<Void> noop =
            Tasks.oneTime("noop").execute((instance, context) -> Runs.ran(Integer.parseInt(instance.getId())));
    // the library's "dynamic" recurring task: many instances of one task, each with its own Schedule in task_data
    private final RecurringTaskWithPersistentSchedule<PlainScheduleAndData> tick =
            Tasks.recurringWithPersistentSchedule("tick", PlainScheduleAndData.class)
                    .execute((instance, context) -> Fires.fired(
                            Integer.parseInt(instance.getId()),
                            context.getExecution().executionTime.toEpochMilli()));
    private Scheduler scheduler;

    DbSchedulerPeer(Strategy strategy) {
        this.strategy = strategy;
    }

    /**
     * Slots phase + n × period: db-scheduler ships FixedDelay, Daily and cron only. The next run is the slot after
     * this run's own, or the first slot still ahead when the run ended late (the slots missed are skipped).
     */
    record FixedRate(long phaseMs, long periodMs) implements Schedule, Serializable {

        @Override
        public Instant getNextExecutionTime(ExecutionComplete done) {
            long own = Math.round((done.getExecution().executionTime.toEpochMilli() - phaseMs) / (double) periodMs);
            long ahead = Math.floorDiv(done.getTimeDone().toEpochMilli() - phaseMs, periodMs) + 1;
            return Instant.ofEpochMilli(phaseMs + Math.max(own + 1, ahead) * periodMs);
        }

        @Override
        public boolean isDeterministic() {
            return true;
        }
    }

    @Override
    public String database() {
        return "dbs";
    }

    @Override
    public long pollMs() {
        return pollMs;
    }

    @Override
    public void setUp(DataSource dataSource) throws Exception {
        // db-scheduler's documented table, MySQL flavour
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE scheduled_tasks ("
                    + " task_name VARCHAR(100) NOT NULL,"
                    + " task_instance VARCHAR(100) NOT NULL,"
                    + " task_data BLOB,"
                    + " execution_time TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),"
                    + " picked BOOLEAN NOT NULL,"
                    + " picked_by VARCHAR(50),"
                    + " last_success TIMESTAMP(6) NULL,"
                    + " last_failure TIMESTAMP(6) NULL,"
                    + " consecutive_failures INT,"
                    + " last_heartbeat TIMESTAMP(6) NULL,"
                    + " version BIGINT NOT NULL,"
                    + " priority SMALLINT,"
                    + " PRIMARY KEY (task_name, task_instance),"
                    + " INDEX execution_time_idx (execution_time),"
                    + " INDEX last_heartbeat_idx (last_heartbeat),"
                    + " INDEX priority_execution_time_idx (priority DESC, execution_time ASC)"
                    + ") ENGINE=InnoDB");
        }
        // set, not detected: through MySQL Connector/J a MariaDB 10.x server reports itself as MySQL 5.5
        JdbcCustomization dialect = strategy == Strategy.LOCK_AND_FETCH
                ? new MySQL8JdbcCustomization(true)
                : new MariaDBJdbcCustomization(true);
        SchedulerBuilder builder = Scheduler.create(dataSource, noop, tick)
                .threads(Peers.THREADS)
                .pollingInterval(Duration.ofMillis(pollMs))
                .jdbcCustomization(dialect)
                .shutdownMaxWait(Duration.ofSeconds(5));
        // each strategy with the library's defaults
        builder = strategy == Strategy.FETCH
                ? builder.pollUsingFetchAndLockOnExecute(0.5, 3.0)
                : builder.pollUsingLockAndFetch(0.5, 1.0);
        scheduler = builder.build();
    }

    @Override
    public void preload(int n) {
        List<TaskInstance<?>> jobs = IntStream.range(0, n)
                .<TaskInstance<?>>mapToObj(i -> noop.instance(Integer.toString(i)))
                .toList();
        scheduler.scheduleBatch(jobs, Instant.now());
    }

    @Override
    public void start() {
        scheduler.start();
    }

    @Override
    public void submit(int id, Instant due) {
        scheduler.schedule(noop.instance(Integer.toString(id)), due);
    }

    @Override
    public void recurring(long[] firstMs) {
        List<SchedulableInstance<?>> schedules = IntStream.range(0, firstMs.length)
                .<SchedulableInstance<?>>mapToObj(i -> tick.instanceBuilder(Integer.toString(i))
                        .data(new PlainScheduleAndData(
                                fixedDelay
                                        ? FixedDelay.ofMillis(Peers.PERIOD_MS)
                                        : new FixedRate(firstMs[i], Peers.PERIOD_MS)))
                        .scheduledTo(Instant.ofEpochMilli(firstMs[i])))
                .toList();
        scheduler.scheduleBatch(schedules); // one batched insert, each instance at its own first time
    }

    @Override
    public void stop() {
        scheduler.stop();
    }
}
