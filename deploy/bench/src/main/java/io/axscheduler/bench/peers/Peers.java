package io.axscheduler.bench.peers;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.axscheduler.bench.CpuMeter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The peers' side of the comparison: one (system, workload) of db-scheduler, Quartz or JobRunr on the server of
 * {@code BENCH_JDBC_URL}, with the budget the node gets (16 worker threads, a pool of 20 connections). Prints one
 * JSON line on stdout, the fields of the node's own benchmark; logs go to stderr.
 *
 * <pre>java -cp deploy/bench/target/ax-bench.jar io.axscheduler.bench.peers.Peers SYSTEM WORKLOAD</pre>
 */
public final class Peers {

    static final int THREADS = 16;
    static final int POOL = 20;
    static final long PERIOD_MS = 60_000;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String base = Settings.text("BENCH_JDBC_URL", "jdbc:mariadb://127.0.0.1:3306/");
    private final String user = Settings.text("BENCH_DB_USER", "root");
    private final String password = Settings.text("BENCH_DB_PASSWORD", "");
    private final String database = Settings.text("BENCH_DB_NAME", "ax_bench");

    private Peers() {}

    /** The systems, by the names the JSON lines carry. */
    static Peer peer(String system) {
        return switch (system) {
            case "db-scheduler" -> new DbSchedulerPeer(DbSchedulerPeer.Strategy.FETCH);
            case "db-scheduler-laf" -> new DbSchedulerPeer(DbSchedulerPeer.Strategy.LOCK_AND_FETCH);
            case "db-scheduler-laf-mariadb" -> new DbSchedulerPeer(DbSchedulerPeer.Strategy.LOCK_AND_FETCH_MARIADB);
            case "quartz" -> new QuartzPeer();
            case "jobrunr" -> new JobRunrPeer();
            default ->
                throw new IllegalArgumentException("unknown system " + system
                        + " (db-scheduler, db-scheduler-laf, db-scheduler-laf-mariadb, quartz, jobrunr)");
        };
    }

    public static void main(String[] args) throws Exception {
        // before any logger starts: the libraries log at WARN to stderr, stdout carries the JSON line only
        System.setProperty("logback.configurationFile", "logback-peers.xml");
        String system = args.length > 0 ? args[0] : "db-scheduler";
        String workload = args.length > 1 ? args[1] : "W1";
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("system", system);
        line.put("workload", workload);
        int exit = 0;
        try {
            new Peers().run(peer(system), workload, line);
        } catch (Exception e) {
            e.printStackTrace();
            line.put("error", e.toString());
            exit = 1;
        }
        System.out.println(JSON.writeValueAsString(line));
        System.out.flush();
        System.exit(exit); // the libraries may leave threads that are not daemons
    }

    private void run(Peer peer, String workload, Map<String, Object> line) throws Exception {
        try (HikariDataSource dataSource = freshDatabase(database + "_" + peer.database())) {
            line.put("jdbc", base.substring(0, base.indexOf("://")));
            line.put("poll_ms", peer.pollMs());
            putServerSettings(dataSource, line);
            peer.setUp(dataSource);
            switch (workload) {
                case "W1" -> w1(peer, line);
                case "W2" -> w2(peer, line);
                case "W3" -> w3(peer, line);
                default -> throw new IllegalArgumentException("unknown workload " + workload + " (W1, W2, W3)");
            }
        }
    }

    /** Drops and makes the database anew, then opens a fixed pool of {@link #POOL} connections on it. */
    private HikariDataSource freshDatabase(String name) throws Exception {
        return freshDatabase(base, user, password, name, POOL);
    }

    /** Drops and makes database {@code name} on the server at {@code base} anew; a fixed pool of {@code pool} on it. */
    static HikariDataSource freshDatabase(String base, String user, String password, String name, int pool)
            throws Exception {
        try (Connection c = DriverManager.getConnection(base, user, password);
                Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name);
            s.execute("CREATE DATABASE " + name);
        }
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(base + name);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(pool);
        config.setMinimumIdle(pool);
        config.setPoolName("peers-" + name);
        return new HikariDataSource(config);
    }

    private static void putServerSettings(HikariDataSource dataSource, Map<String, Object> line) throws Exception {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT @@innodb_flush_log_at_trx_commit, @@log_bin")) {
            r.next();
            line.put("innodb_flush_log_at_trx_commit", r.getInt(1));
            line.put("log_bin", r.getInt(2));
        }
    }

    /**
     * W1: N jobs, all due now, stored while the scheduler is stopped; seconds from its start until the last job's
     * first start. Latency is counted from the start as well: every job was due already.
     */
    private static void w1(Peer peer, Map<String, Object> line) throws Exception {
        int jobs = Settings.number("W1_JOBS", 10_000);
        long timeoutNanos = TimeUnit.SECONDS.toNanos(Settings.number("W1_TIMEOUT_S", 150));
        Runs runs = Runs.recordJobs(jobs);
        long insertStart = System.nanoTime();
        peer.preload(jobs);
        double insertS = (System.nanoTime() - insertStart) / 1e9;
        long startMicros = Latencies.nowMicros();
        for (int id = 0; id < jobs; id++) runs.due(id, startMicros);
        peer.start();
        long deadline = System.nanoTime() + timeoutNanos;
        while (runs.started() < jobs && System.nanoTime() < deadline) Thread.sleep(5);
        boolean complete = runs.started() == jobs;
        double seconds = ((complete ? runs.lastStartMicros() : Latencies.nowMicros()) - startMicros) / 1e6;
        Thread.sleep(Settings.number("GRACE_MS", 1000)); // late duplicates
        peer.stop();
        line.put("insert_s", round(insertS, 2));
        line.put("jobs", jobs);
        line.put("seconds", round(seconds, 3));
        line.put("jobs_per_s", complete ? round(jobs / seconds, 1) : null);
        if (!complete) line.put("timed_out", true);
        runs.put(line);
    }

    /**
     * W2: R jobs a second for S seconds, each due 2 s after its submission, the scheduler running; latency = first
     * start − due. Four submitters, paced by one thread, so that one slow submit does not hold up the pace.
     */
    private static void w2(Peer peer, Map<String, Object> line) throws Exception {
        int seconds = Settings.number("W2_SECONDS", 20), rate = Settings.number("W2_RATE", 200);
        int leadMs = Settings.number("W2_LEAD_MS", 2000), drainS = Settings.number("W2_DRAIN_S", 30);
        int jobs = seconds * rate;
        Runs runs = Runs.recordJobs(jobs);
        peer.start();
        Thread.sleep(1000); // the scheduler comes up before the load starts
        ExecutorService submitters = Executors.newFixedThreadPool(4);
        AtomicInteger failed = new AtomicInteger();
        AtomicLong lastDueMs = new AtomicLong();
        long submitStart = System.nanoTime();
        for (int i = 0; i < jobs; i++) {
            long wait = submitStart + (long) (i * 1e9 / rate) - System.nanoTime();
            if (wait > 0) TimeUnit.NANOSECONDS.sleep(wait);
            int id = i;
            submitters.execute(() -> {
                long dueMs = System.currentTimeMillis() + leadMs; // whole ms: Quartz keeps ms
                runs.due(id, dueMs * 1000);
                lastDueMs.accumulateAndGet(dueMs, Math::max);
                try {
                    peer.submit(id, Instant.ofEpochMilli(dueMs));
                } catch (Exception e) {
                    failed.incrementAndGet();
                    e.printStackTrace();
                }
            });
        }
        submitters.shutdown();
        submitters.awaitTermination(10, TimeUnit.MINUTES);
        double submitS = (System.nanoTime() - submitStart) / 1e9;
        long deadlineMs = lastDueMs.get() + drainS * 1000L;
        while (runs.started() < jobs && System.currentTimeMillis() < deadlineMs) Thread.sleep(5);
        Thread.sleep(Settings.number("GRACE_MS", 1000));
        peer.stop();
        line.put("jobs", jobs);
        line.put("rate", rate);
        line.put("submit_s", round(submitS, 2));
        // the rate reached: below the rate asked for, the library's submit held the submitters back
        line.put("submit_rate", round(jobs / submitS, 1));
        line.put("submit_failures", failed.get());
        runs.put(line);
    }

    /**
     * W3: K schedules of 60 s, schedule i first firing at a + i × 60 s / K (a: the first whole second at least the lead
     * after set-up began), stored while the scheduler is stopped. Counted: the slots in the window, less its last 5 s;
     * the window opens at a, or the lead after the start when set-up ran past a, and the drain lets late runs count.
     */
    private static void w3(Peer peer, Map<String, Object> line) throws Exception {
        int k = Settings.number("W3_SCHEDULES", 10_000), minutes = Settings.number("W3_MINUTES", 3);
        long leadMs = Settings.number("W3_LEAD_S", 10) * 1000L, drainMs = Settings.number("W3_DRAIN_S", 30) * 1000L;
        long resolution = peer.phaseResolutionMs();
        long a = (System.currentTimeMillis() + leadMs) / 1000 * 1000 + 1000;
        long[] first = new long[k];
        for (int i = 0; i < k; i++) first[i] = a + i * PERIOD_MS / k / resolution * resolution;
        long setUpStart = System.nanoTime();
        peer.recurring(first);
        double setUpS = (System.nanoTime() - setUpStart) / 1e9;
        long fromMs = Math.max(a, System.currentTimeMillis() + leadMs), toMs = fromMs + minutes * PERIOD_MS;
        Fires fires = Fires.recordFires(first, PERIOD_MS, (int) (k * ((toMs + drainMs - a) / PERIOD_MS + 3)));
        peer.start();
        long steadyFrom = fromMs + Math.min(PERIOD_MS, (toMs - fromMs) / 3);
        Thread.sleep(Math.max(0, steadyFrom - System.currentTimeMillis()));
        CpuMeter.Reading steadyStart = CpuMeter.read();
        int firesAtStart = fires.recorded();
        Thread.sleep(Math.max(0, toMs - System.currentTimeMillis()));
        CpuMeter.Reading steadyEnd = CpuMeter.read();
        int firesAtEnd = fires.recorded();
        Thread.sleep(Math.max(0, toMs + drainMs - System.currentTimeMillis()));
        System.gc();
        Runtime runtime = Runtime.getRuntime();
        double heapMb = (runtime.totalMemory() - runtime.freeMemory()) / 1048576.0; // still running, K schedules held
        peer.stop();
        line.put("schedules", k);
        line.put("minutes", minutes);
        fires.put(fromMs, toMs - 5000, line);
        line.put("heap_used_mb", round(heapMb, 1));
        line.put("setup_s", round(setUpS, 2));
        CpuMeter.put(line, "steady", steadyStart, steadyEnd, firesAtEnd - firesAtStart);
    }

    private static double round(double value, int digits) {
        double scale = Math.pow(10, digits);
        return Math.round(value * scale) / scale;
    }
}
