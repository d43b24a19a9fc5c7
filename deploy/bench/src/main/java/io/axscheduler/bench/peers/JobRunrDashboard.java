package io.axscheduler.bench.peers;

import static org.jobrunr.server.BackgroundJobServerConfiguration.usingStandardBackgroundJobServerConfiguration;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.UUID;
import org.jobrunr.configuration.JobRunr;
import org.jobrunr.jobs.lambdas.JobRequest;
import org.jobrunr.jobs.lambdas.JobRequestHandler;
import org.jobrunr.scheduling.JobRequestScheduler;
import org.jobrunr.storage.StorageProvider;
import org.jobrunr.storage.sql.mariadb.MariaDbStorageProvider;
import org.jobrunr.utils.mapper.jackson.JacksonJsonMapper;

/**
 * JobRunr's dashboard beside the console's timings: JobRunr on MariaDB with {@code JOBRUNR_DASHBOARD_JOBS} (1,000,000)
 * succeeded jobs, its dashboard server on {@code JOBRUNR_DASHBOARD_PORT} (18091). One job runs through JobRunr; its
 * row is copied by SQL with fresh ids (in the row and in its JSON), as ax-scheduler's million are written by SQL.
 * Prints the time of the storage's job statistics (what the dashboard's overview streams) and the id of a job, then
 * serves until killed, for {@code console-timings.py} to time {@code /api/jobs?state=…} and {@code /api/jobs/<id>}.
 */
public final class JobRunrDashboard {

    private JobRunrDashboard() {}

    /** The one job run through JobRunr: it does nothing. */
    public static final class Noop implements JobRequest {

        @Override
        public Class<NoopHandler> getJobRequestHandler() {
            return NoopHandler.class;
        }
    }

    public static final class NoopHandler implements JobRequestHandler<Noop> {

        @Override
        public void run(Noop noop) {}
    }

    private static <T> T instantiate(Class<T> type) {
        try {
            return type.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    public static void main(String[] args) throws Exception {
        String base = Settings.text("BENCH_JDBC_URL", "jdbc:mariadb://127.0.0.1:3306/");
        String user = Settings.text("BENCH_DB_USER", "root"), password = Settings.text("BENCH_DB_PASSWORD", "");
        String name = Settings.text("JOBRUNR_DASHBOARD_DB", "ax_console_bench_jobrunr");
        int jobs = Settings.number("JOBRUNR_DASHBOARD_JOBS", 1_000_000);
        int port = Settings.number("JOBRUNR_DASHBOARD_PORT", 18091);
        HikariDataSource dataSource = Peers.freshDatabase(base, user, password, name, 10);
        StorageProvider storage = new MariaDbStorageProvider(dataSource);
        JobRequestScheduler scheduler = JobRunr.configure()
                .useJsonMapper(new JacksonJsonMapper())
                .useJobActivator(JobRunrDashboard::instantiate)
                .useStorageProvider(storage)
                .useBackgroundJobServer(usingStandardBackgroundJobServerConfiguration()
                        .andWorkerCount(2)
                        .andPollInterval(Duration.ofSeconds(5)))
                .useDashboard(port)
                .initialize()
                .getJobRequestScheduler();
        UUID first = scheduler.enqueue(new Noop()).asUUID();
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            for (int i = 0; i < 120; i++) {
                try (ResultSet r = s.executeQuery("SELECT state FROM jobrunr_jobs WHERE id = '" + first + "'")) {
                    if (r.next() && "SUCCEEDED".equals(r.getString(1))) break;
                }
                Thread.sleep(1000);
            }
            try (ResultSet r = s.executeQuery("SELECT state FROM jobrunr_jobs WHERE id = '" + first + "'")) {
                if (!r.next() || !"SUCCEEDED".equals(r.getString(1)))
                    throw new IllegalStateException("the first job did not succeed");
            }
            JobRunr.getBackgroundJobServer().stop(); // nothing more to run; its housekeeping stays out of the timings
            // ids that look like UUIDs and differ from the first job's, in the row and in its JSON alike
            String id = "CONCAT(LPAD(HEX(seq), 8, '0'), '-0000-4000-8000-', LPAD(HEX(seq), 12, '0'))";
            int made =
                    s.executeUpdate("INSERT INTO jobrunr_jobs (id, version, jobAsJson, jobSignature, state, createdAt,"
                            + " updatedAt, scheduledAt, recurringJobId) SELECT " + id
                            + ", version, REPLACE(jobAsJson, '"
                            + first + "', " + id
                            + "), jobSignature, state, createdAt - INTERVAL (seq * 86000) MICROSECOND,"
                            + " updatedAt - INTERVAL (seq * 86000) MICROSECOND, scheduledAt, recurringJobId"
                            + " FROM jobrunr_jobs, seq_1_to_" + (jobs - 1) + " WHERE id = '" + first + "'");
            System.err.println("[jobrunr-dashboard] " + (made + 1) + " succeeded jobs");
        }
        long[] ms = new long[100];
        for (int i = 0; i < 20; i++) storage.getJobStats();
        for (int i = 0; i < ms.length; i++) {
            long t = System.nanoTime();
            storage.getJobStats();
            ms[i] = (System.nanoTime() - t) / 1000;
        }
        Arrays.sort(ms);
        System.out.printf(
                "%7.1f %7.1f %7.1f  JobRunr storage getJobStats() (the dashboard overview's counts)%n",
                ms[49] / 1000.0, ms[98] / 1000.0, ms[99] / 1000.0);
        System.out.println("job " + first);
        System.out.flush();
        Thread.currentThread().join();
    }
}
