package io.axscheduler.bench.peers;

import static org.jobrunr.server.BackgroundJobServerConfiguration.usingStandardBackgroundJobServerConfiguration;

import java.time.Duration;
import java.time.Instant;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.jobrunr.configuration.JobRunr;
import org.jobrunr.jobs.lambdas.JobRequest;
import org.jobrunr.jobs.lambdas.JobRequestHandler;
import org.jobrunr.scheduling.JobRequestScheduler;
import org.jobrunr.storage.sql.mariadb.MariaDbStorageProvider;
import org.jobrunr.utils.mapper.jackson.JacksonJsonMapper;

/** JobRunr (open source) on its MariaDB SQL storage, which creates its own tables. */
final class JobRunrPeer implements Peer {

    private final long pollMs = Settings.number("JOBRUNR_POLL_MS", 5000); // its floor for SQL storage
    private JobRequestScheduler jobs;

    /** A W1 or W2 job: its id. */
    public static final class Run implements JobRequest {

        private int id;

        public Run() {}

        Run(int id) {
            this.id = id;
        }

        public int getId() {
            return id;
        }

        public void setId(int id) {
            this.id = id;
        }

        @Override
        public Class<RunHandler> getJobRequestHandler() {
            return RunHandler.class;
        }
    }

    public static final class RunHandler implements JobRequestHandler<Run> {

        @Override
        public void run(Run run) {
            Runs.ran(run.getId());
        }
    }

    /** A W3 run: the schedule's id. A job is not told its scheduled time, so the start is snapped to the slot. */
    public static final class Tick implements JobRequest {

        private int id;

        public Tick() {}

        Tick(int id) {
            this.id = id;
        }

        public int getId() {
            return id;
        }

        public void setId(int id) {
            this.id = id;
        }

        @Override
        public Class<TickHandler> getJobRequestHandler() {
            return TickHandler.class;
        }
    }

    public static final class TickHandler implements JobRequestHandler<Tick> {

        @Override
        public void run(Tick tick) {
            Fires.fired(tick.getId(), 0);
        }
    }

    @Override
    public String database() {
        return "jobrunr";
    }

    @Override
    public long pollMs() {
        return pollMs;
    }

    @Override
    public void setUp(DataSource dataSource) {
        jobs = JobRunr.configure()
                .useJsonMapper(new JacksonJsonMapper())
                .useJobActivator(JobRunrPeer::instantiate)
                .useStorageProvider(new MariaDbStorageProvider(dataSource))
                .useBackgroundJobServer(
                        usingStandardBackgroundJobServerConfiguration()
                                .andWorkerCount(Peers.THREADS)
                                .andPollInterval(Duration.ofMillis(pollMs)),
                        false) // built now, started by start()
                .initialize()
                .getJobRequestScheduler();
    }

    private static <T> T instantiate(Class<T> type) {
        try {
            return type.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void preload(int n) {
        jobs.enqueue(IntStream.range(0, n).mapToObj(Run::new)); // one bulk save, enqueued
    }

    /** A 6-field cron has whole seconds; an interval would take its phase from the moment it was created. */
    @Override
    public long phaseResolutionMs() {
        return 1000;
    }

    @Override
    public void recurring(long[] firstMs) {
        for (int i = 0; i < firstMs.length; i++) {
            // no batch call for recurring jobs: one save each, every minute at the schedule's second
            jobs.scheduleRecurrently("r" + i, Math.floorMod(firstMs[i] / 1000, 60) + " * * * * *", new Tick(i));
        }
    }

    @Override
    public void start() {
        JobRunr.getBackgroundJobServer().start();
    }

    @Override
    public void submit(int id, Instant due) {
        jobs.schedule(due, new Run(id));
    }

    @Override
    public void stop() {
        JobRunr.getBackgroundJobServer().stop();
        JobRunr.destroy();
    }
}
