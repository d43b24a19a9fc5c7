package io.axscheduler.bench.peers;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.Date;
import java.util.HashSet;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.impl.StdSchedulerFactory;
import org.quartz.utils.ConnectionProvider;

/** Quartz with JDBC JobStoreTX, clustered, on the tables its own MySQL InnoDB script creates. */
final class QuartzPeer implements Peer {

    private static final String TABLES = "org/quartz/impl/jdbcjobstore/tables_mysql_innodb.sql";
    private static final JobKey NOOP = JobKey.jobKey("noop");
    private static final JobKey TICK = JobKey.jobKey("tick");

    /** Quartz builds its connection provider by class name, so the harness's pool reaches it through a static. */
    private static volatile DataSource pool;

    private final long idleWaitMs = Settings.number("QUARTZ_IDLE_WAIT_MS", 1000); // Quartz refuses less than 1 s
    // the default 60 s would route W1 jobs that wait longer through the misfire handler
    private final long misfireMs = Settings.number("QUARTZ_MISFIRE_MS", 600_000);
    private Scheduler scheduler;

    public static final class PoolConnections implements ConnectionProvider {

        @Override
        public Connection getConnection() throws SQLException {
            return pool.getConnection();
        }

        @Override
        public void shutdown() {}

        @Override
        public void initialize() {}
    }

    /** One durable job; each trigger carries the job id. */
    public static final class NoopJob implements Job {

        @Override
        public void execute(JobExecutionContext context) {
            Runs.ran(Integer.parseInt(context.getMergedJobDataMap().getString("id")));
        }
    }

    /** One durable job; each recurring trigger carries the schedule id. */
    public static final class TickJob implements Job {

        @Override
        public void execute(JobExecutionContext context) {
            Fires.fired(
                    Integer.parseInt(context.getMergedJobDataMap().getString("id")),
                    context.getScheduledFireTime().getTime());
        }
    }

    @Override
    public String database() {
        return "quartz";
    }

    @Override
    public long pollMs() {
        return idleWaitMs;
    }

    @Override
    public void setUp(DataSource dataSource) throws Exception {
        createTables(dataSource);
        pool = dataSource;
        Properties p = new Properties();
        p.setProperty("org.quartz.scheduler.instanceName", "peers");
        p.setProperty("org.quartz.scheduler.instanceId", "AUTO");
        p.setProperty("org.quartz.scheduler.idleWaitTime", String.valueOf(idleWaitMs));
        p.setProperty("org.quartz.scheduler.batchTriggerAcquisitionMaxCount", String.valueOf(Peers.THREADS));
        p.setProperty("org.quartz.threadPool.threadCount", String.valueOf(Peers.THREADS));
        p.setProperty("org.quartz.jobStore.class", "org.quartz.impl.jdbcjobstore.JobStoreTX");
        p.setProperty("org.quartz.jobStore.driverDelegateClass", "org.quartz.impl.jdbcjobstore.StdJDBCDelegate");
        p.setProperty("org.quartz.jobStore.dataSource", "ds");
        p.setProperty("org.quartz.jobStore.isClustered", "true");
        // required once triggers are acquired in batches
        p.setProperty("org.quartz.jobStore.acquireTriggersWithinLock", "true");
        p.setProperty("org.quartz.jobStore.misfireThreshold", String.valueOf(misfireMs));
        p.setProperty("org.quartz.jobStore.useProperties", "true");
        p.setProperty("org.quartz.dataSource.ds.connectionProvider.class", PoolConnections.class.getName());
        scheduler = new StdSchedulerFactory(p).getScheduler();
    }

    /** The statements of the script in the Quartz jar, comments and its closing commit left out. */
    private static void createTables(DataSource dataSource) throws Exception {
        String script;
        try (InputStream in = Scheduler.class.getClassLoader().getResourceAsStream(TABLES)) {
            if (in == null) throw new IllegalStateException(TABLES + " is not in the Quartz jar");
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        script = script.lines()
                .filter(line -> !line.trim().startsWith("#") && !line.trim().startsWith("--"))
                .collect(Collectors.joining("\n"));
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            for (String statement : script.split(";")) {
                if (!statement.isBlank() && !statement.trim().equalsIgnoreCase("commit")) s.execute(statement);
            }
        }
    }

    private static Trigger once(int id, Instant due) {
        return TriggerBuilder.newTrigger()
                .withIdentity("t" + id)
                .forJob(NOOP)
                .usingJobData("id", Integer.toString(id))
                .startAt(Date.from(due))
                .withSchedule(SimpleScheduleBuilder.simpleSchedule().withMisfireHandlingInstructionFireNow())
                .build();
    }

    @Override
    public void preload(int n) throws Exception {
        JobDetail job = JobBuilder.newJob(NoopJob.class)
                .withIdentity(NOOP)
                .storeDurably()
                .build();
        Set<Trigger> triggers = new HashSet<>();
        Instant now = Instant.now();
        for (int i = 0; i < n; i++) triggers.add(once(i, now));
        scheduler.scheduleJobs(Map.of(job, triggers), true); // one transaction
    }

    @Override
    public void recurring(long[] firstMs) throws Exception {
        JobDetail job = JobBuilder.newJob(TickJob.class)
                .withIdentity(TICK)
                .storeDurably()
                .build();
        Set<Trigger> triggers = new HashSet<>();
        for (int i = 0; i < firstMs.length; i++) {
            // a SimpleTrigger, not a CronTrigger: cron has whole seconds only
            triggers.add(TriggerBuilder.newTrigger()
                    .withIdentity("r" + i)
                    .forJob(TICK)
                    .usingJobData("id", Integer.toString(i))
                    .startAt(new Date(firstMs[i]))
                    .withSchedule(SimpleScheduleBuilder.simpleSchedule()
                            .withIntervalInMilliseconds(Peers.PERIOD_MS)
                            .repeatForever()
                            // after a misfire the next slot of the schedule's grid, not a run now
                            .withMisfireHandlingInstructionNextWithRemainingCount())
                    .build());
        }
        scheduler.scheduleJobs(Map.of(job, triggers), true); // one transaction, as in W1
    }

    @Override
    public void start() throws Exception {
        if (!scheduler.checkExists(NOOP)) {
            scheduler.addJob(
                    JobBuilder.newJob(NoopJob.class)
                            .withIdentity(NOOP)
                            .storeDurably()
                            .build(),
                    false);
        }
        scheduler.start();
    }

    @Override
    public void submit(int id, Instant due) throws Exception {
        scheduler.scheduleJob(once(id, due));
    }

    @Override
    public void stop() throws Exception {
        scheduler.shutdown(true);
    }
}
