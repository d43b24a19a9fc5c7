package io.axscheduler.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.management.OperatingSystemMXBean;
import io.axscheduler.api.Metadata;
import io.axscheduler.api.TimeOrderedIds;
import io.axscheduler.api.job.RetryPolicy;
import io.axscheduler.api.job.SubmitJob;
import io.axscheduler.deploy.AxSchedulerApplication;
import io.axscheduler.scheduler.claim.ScanDueJobs;
import io.axscheduler.scheduler.fire.ScanSchedules;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The workloads of docs/benchmark.md against a whole ax-scheduler node — event store, job_queue projection, scanner,
 * saga, db-scheduler deadlines, pools: nothing switched off — on the server of {@code BENCH_JDBC_URL}. One JSON line
 * per workload on stdout, progress on stderr. Exactly-once is read from the event store, not assumed.
 */
public final class Benchmark {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final long PERIOD_MS = 60_000;

    private final String base = env("BENCH_JDBC_URL", "jdbc:mariadb://127.0.0.1:3306/");
    private final String user = env("BENCH_DB_USER", "root");
    private final String password = env("BENCH_DB_PASSWORD", "");
    private final String database = env("BENCH_DB_NAME", "ax_bench");

    public static void main(String[] args) throws Exception {
        AxSchedulerApplication.quietAxon();
        List<String> workloads = args.length == 0 ? List.of("W1", "W2", "W3") : Arrays.asList(args);
        Benchmark bench = new Benchmark();
        for (String workload : workloads) {
            Map<String, Object> line;
            try {
                line = switch (workload) {
                    case "W1" -> bench.w1(Integer.parseInt(env("W1_JOBS", "10000")));
                    case "W2" ->
                        bench.w2(
                                Integer.parseInt(env("W2_SECONDS", "20")),
                                Integer.parseInt(env("W2_RATE", "200")),
                                Long.parseLong(env("W2_LEAD_MS", "2000")),
                                env("W2_SUBMIT", "command"));
                    case "W3" ->
                        bench.w3(
                                Integer.parseInt(env("W3_SCHEDULES", "10000")),
                                Integer.parseInt(env("W3_MINUTES", "3")),
                                Long.parseLong(env("W3_LEAD_S", "10")) * 1000,
                                Long.parseLong(env("W3_DRAIN_S", "30")) * 1000);
                    default -> throw new IllegalArgumentException("unknown workload " + workload + " (W1, W2, W3)");
                };
            } catch (Exception e) {
                e.printStackTrace();
                line = new LinkedHashMap<>(
                        Map.of("system", "ax-scheduler", "workload", workload, "error", e.toString()));
            }
            System.out.println(JSON.writeValueAsString(line));
        }
        System.exit(0);
    }

    /** W1: N no-op jobs, all due now, submitted through the batch API while scanning is paused; then scanning starts. */
    Map<String, Object> w1(int jobs) throws Exception {
        try (Node node = start()) {
            node.scanner().pauseScanning();
            long submitStart = System.currentTimeMillis();
            List<String> ids = new ArrayList<>(jobs);
            for (int from = 0; from < jobs; from += 1000) {
                int n = Math.min(1000, jobs - from);
                StringBuilder body = new StringBuilder("{\"jobs\":[");
                for (int i = 0; i < n; i++) body.append(i == 0 ? "" : ",").append("{\"jobType\":\"bench\"}");
                JsonNode answer =
                        node.post("/api/v1/jobs/batch", body.append("]}").toString());
                answer.path("results").forEach(r -> ids.add(r.path("jobId").asText()));
                progress("W1 submitted " + ids.size() + "/" + jobs);
            }
            double insertS = (System.currentTimeMillis() - submitStart) / 1000.0;
            long questionsBefore = node.questions();
            Map<String, Long> cpuBefore = cpuMsByThread();
            Map<String, Long> vmBefore = vmThreadTicks();
            long[] machineBefore = machineCpuTicks();
            long scanStart = System.currentTimeMillis();
            long scanStartUptime = ManagementFactory.getRuntimeMXBean().getUptime();
            node.scanner().resumeScanning();
            awaitStarts(node.handler, jobs, Duration.ofMinutes(10), "W1");
            progress("W1 CPU while scanning (JVM uptime " + scanStartUptime + "-"
                    + ManagementFactory.getRuntimeMXBean().getUptime()
                    + " ms), ms by thread: " + since(cpuBefore) + "; machine busy / idle ticks: "
                    + busyAndIdle(machineBefore) + "; JVM's own threads, ticks: " + vmThreadsSince(vmBefore));
            long lastStart = node.handler.firstStartMs.values().stream()
                    .mapToLong(Long::longValue)
                    .max()
                    .orElse(scanStart);
            awaitTerminal(node, jobs, Duration.ofMinutes(5));
            long questions = node.questions() - questionsBefore;
            long[] latencies = ids.stream()
                    .map(node.handler.firstStartMs::get)
                    .filter(t -> t != null)
                    .mapToLong(t -> t - scanStart)
                    .sorted()
                    .toArray();
            double seconds = (lastStart - scanStart) / 1000.0;
            Map<String, Object> line = head("W1", node);
            line.put("jobs", jobs);
            line.put("seconds", round(seconds));
            line.put("jobs_per_s", round(jobs / Math.max(seconds, 0.001)));
            putPercentiles(line, latencies);
            line.put("insert_s", round(insertS));
            line.put("end_to_end_s", round((node.lastSucceededMs() - submitStart) / 1000.0));
            putExactlyOnce(line, node, ids);
            putCosts(line, node, jobs, questions);
            progress("W1 CPU of this JVM by thread, ms: " + cpuByThread());
            return line;
        }
    }

    /**
     * W2: for S seconds, R jobs a second, each due {@code leadMs} after its submission; latency = start − due. Jobs go
     * in through {@code submit}: {@code command}, the node's in-process command API (a SubmitJob on its command
     * gateway, as the peers' harness submits through each library's in-process API), or {@code http}, one
     * {@code POST /api/v1/jobs} each from 4 client threads.
     */
    Map<String, Object> w2(int seconds, int rate, long leadMs, String submit) throws Exception {
        if (!submit.equals("command") && !submit.equals("http"))
            throw new IllegalArgumentException("W2_SUBMIT: command or http");
        try (Node node = start()) {
            Thread.sleep(1_000); // as the peers' harness: let the scheduler come up before the load starts
            long questionsBefore = node.questions();
            Map<String, Long> dueMs = new ConcurrentHashMap<>();
            ExecutorService submitters = Executors.newFixedThreadPool(4);
            ScheduledExecutorService pacer = Executors.newSingleThreadScheduledExecutor();
            int total = seconds * rate;
            long startedAt = System.currentTimeMillis();
            long periodMicros = 1_000_000L / rate;
            // the submitters live until their CPU is counted below: a thread that has ended drops out of the count
            CountDownLatch submitted = new CountDownLatch(total);
            for (int i = 0; i < total; i++) {
                pacer.schedule(
                        () -> submitters.execute(() -> {
                            try {
                                Instant due = Instant.ofEpochMilli(System.currentTimeMillis() + leadMs);
                                String jobId = submit.equals("http")
                                        ? node.post("/api/v1/jobs", "{\"jobType\":\"bench\",\"runAt\":\"" + due + "\"}")
                                                .path("jobId")
                                                .asText()
                                        : node.submit(due);
                                dueMs.put(jobId, due.toEpochMilli());
                            } finally {
                                submitted.countDown();
                            }
                        }),
                        i * periodMicros,
                        TimeUnit.MICROSECONDS);
            }
            pacer.shutdown();
            pacer.awaitTermination(seconds + 60L, TimeUnit.SECONDS);
            submitted.await(120, TimeUnit.SECONDS);
            double submitRate = total / ((System.currentTimeMillis() - startedAt) / 1000.0);
            awaitStarts(node.handler, total, Duration.ofMillis(leadMs + 30_000), "W2");
            Thread.sleep(1_000); // late duplicates
            long questions = node.questions() - questionsBefore;
            List<String> ids = new ArrayList<>(dueMs.keySet());
            List<long[]> dueAndLag = ids.stream()
                    .filter(node.handler.firstStartMs::containsKey)
                    .map(id -> new long[] {dueMs.get(id), node.handler.firstStartMs.get(id) - dueMs.get(id)})
                    .toList();
            long[] latencies =
                    dueAndLag.stream().mapToLong(one -> one[1]).sorted().toArray();
            Map<String, Object> line = head("W2", node);
            line.put("jobs", total);
            line.put("rate", rate);
            line.put("submit", submit);
            line.put("submit_rate", round(submitRate));
            putPercentiles(line, latencies);
            line.put("early", Arrays.stream(latencies).filter(l -> l < 0).count());
            String dump = env("W2_DUMP", "");
            if (!dump.isEmpty()) dumpLagBySecond(dump, startedAt, dueAndLag);
            putExactlyOnce(line, node, ids);
            // submits, claims, outcomes and the saga's bookkeeping of the jobs that had ended by then
            line.put("statements_per_job", round((double) questions / total));
            progress("W2 CPU of this JVM by thread, ms: " + cpuByThread());
            submitters.shutdown();
            return line;
        }
    }

    /**
     * W3, as the peers define it: K fixed-rate schedules of 60 s, schedule i first firing at a + i × 60 s / K (a: the
     * first whole second at least {@code leadMs} after set-up began), created through the batch API while both the job
     * scan and the schedule scan are paused. Counted: fire times in the window [from, to − 5 s), from = a or lead after
     * the start if later; lag = job body start − the fire time in the job's key.
     */
    Map<String, Object> w3(int k, int minutes, long leadMs, long drainMs) throws Exception {
        try (Node node = start()) {
            node.scanner().pauseScanning();
            node.schedules().pauseScanning();
            long setupStart = System.currentTimeMillis();
            long jitAtSetupStart = jitMs();
            long a = (setupStart + leadMs) / 1000 * 1000 + 1000;
            long[] first = new long[k];
            for (int i = 0; i < k; i++) first[i] = a + i * PERIOD_MS / k;
            String[] ids = new String[k];
            ExecutorService clients = Executors.newFixedThreadPool(Integer.parseInt(env("W3_CLIENTS", "4")));
            List<java.util.concurrent.Future<?>> batches = new ArrayList<>();
            java.util.concurrent.atomic.AtomicInteger created = new java.util.concurrent.atomic.AtomicInteger();
            for (int from = 0; from < k; from += 1000) {
                int start = from, n = Math.min(1000, k - from);
                batches.add(clients.submit(() -> {
                    StringBuilder body = new StringBuilder("{\"schedules\":[");
                    for (int i = start; i < start + n; i++) {
                        body.append(i == start ? "" : ",")
                                .append("{\"name\":\"w3-")
                                .append(i)
                                .append("\",\"trigger\":{\"type\":\"fixedRate\",\"intervalMs\":")
                                .append(PERIOD_MS)
                                .append(",\"startAt\":\"")
                                .append(Instant.ofEpochMilli(first[i]))
                                .append("\"},\"job\":{\"jobType\":\"bench\"}}");
                    }
                    JsonNode results = node.post(
                                    "/api/v1/schedules/batch", body.append("]}").toString())
                            .path("results");
                    for (int i = 0; i < n; i++)
                        ids[start + i] = results.get(i).path("scheduleId").asText();
                    progress("W3 created " + created.addAndGet(n) + "/" + k + " schedules");
                    return null;
                }));
            }
            for (var batch : batches) batch.get();
            clients.shutdown();
            double setupS = (System.currentTimeMillis() - setupStart) / 1000.0;
            long jitSetupMs = jitMs() - jitAtSetupStart;
            Map<String, Integer> index = new HashMap<>(k * 2);
            for (int i = 0; i < k; i++) index.put(ids[i], i);
            long fromMs = Math.max(a, System.currentTimeMillis() + leadMs), toMs = fromMs + minutes * PERIOD_MS;
            node.handler.recordFires(index, (int) (k * ((toMs + drainMs - a) / PERIOD_MS + 3)));
            long questionsBefore = node.questions();
            long eventsBefore = node.eventRows();
            long jobsBefore = node.scheduledJobs();
            node.schedules().resumeScanning();
            node.scanner().resumeScanning();
            progress("W3 scanning; window " + Instant.ofEpochMilli(fromMs) + " .. " + Instant.ofEpochMilli(toMs)
                    + ", drain " + drainMs / 1000 + " s");
            long end = toMs + drainMs;
            // steady state: the window after its first minute, when set-up's backlog and the JIT's first pass are over
            long steadyFrom = fromMs + Math.min(PERIOD_MS, (toMs - fromMs) / 3);
            CpuMeter.Reading steadyStart = null, steadyEnd = null;
            int firesAtStart = 0, firesAtEnd = 0;
            // the cold start: fires run in the first 30 s from the first fire time or the scan's start, whichever is
            // later (with set-up longer than the lead, a backlog is due at once), and the JIT's time in the minute
            // after the scan starts
            long scanStart = System.currentTimeMillis(), jitAtScanStart = jitMs();
            long coldHalfMinute = Math.max(scanStart, a) + 30_000, coldMinute = scanStart + PERIOD_MS;
            Integer firesFirst30s = null;
            Long jitFirstMinuteMs = null, jitAtSteadyStart = null, jitSteadyMs = null;
            while (System.currentTimeMillis() < end) {
                long now = System.currentTimeMillis();
                long next = steadyStart == null ? steadyFrom : steadyEnd == null ? toMs : end;
                if (firesFirst30s == null) next = Math.min(next, coldHalfMinute);
                else if (jitFirstMinuteMs == null) next = Math.min(next, coldMinute);
                Thread.sleep(Math.min(10_000, Math.max(1, Math.min(next, end) - now)));
                now = System.currentTimeMillis();
                if (firesFirst30s == null && now >= coldHalfMinute) firesFirst30s = node.handler.fireRecords();
                if (jitFirstMinuteMs == null && now >= coldMinute) jitFirstMinuteMs = jitMs() - jitAtScanStart;
                if (steadyStart == null && now >= steadyFrom) {
                    steadyStart = CpuMeter.read();
                    jitAtSteadyStart = jitMs();
                    firesAtStart = node.handler.fireRecords();
                } else if (steadyStart != null && steadyEnd == null && now >= toMs) {
                    steadyEnd = CpuMeter.read();
                    jitSteadyMs = jitMs() - jitAtSteadyStart;
                    firesAtEnd = node.handler.fireRecords();
                }
                progress("W3 " + node.handler.fireRecords() + " fires run, "
                        + Math.max(0, (end - System.currentTimeMillis()) / 1000) + " s left");
            }
            System.gc();
            Runtime rt = Runtime.getRuntime();
            double heapMb = (rt.totalMemory() - rt.freeMemory()) / 1048576.0; // node still running, K schedules loaded
            long questions = node.questions() - questionsBefore;
            long events = node.eventRows() - eventsBefore;
            long jobsMade = node.scheduledJobs() - jobsBefore;
            node.schedules().pauseScanning();
            node.scanner().pauseScanning();
            Thread.sleep(2_000); // the event store is read once the jobs in flight have ended
            Map<String, Object> line = head("W3", node);
            line.put("schedules", k);
            line.put("minutes", minutes);
            putFires(line, node.handler, first, fromMs, toMs - 5_000);
            line.put("heap_used_mb", round(heapMb));
            line.put("setup_s", round(setupS));
            // what bounds the p99 on a cold JVM: the catch-up's rate against the rate fires fall due, and the JIT
            line.put("due_per_s", round(k * 1000.0 / PERIOD_MS));
            if (firesFirst30s != null) line.put("run_per_s_first_30s", round(firesFirst30s / 30.0));
            line.put("jit_s_setup", round(jitSetupMs / 1000.0));
            if (jitFirstMinuteMs != null) line.put("jit_s_first_minute", round(jitFirstMinuteMs / 1000.0));
            if (jitSteadyMs != null) line.put("jit_s_steady", round(jitSteadyMs / 1000.0));
            if (steadyStart != null && steadyEnd != null)
                CpuMeter.put(line, "steady", steadyStart, steadyEnd, firesAtEnd - firesAtStart);
            putScheduleExactlyOnce(line, node);
            line.put(
                    "fire_ahead_ms",
                    Long.parseLong(
                            node.context().getEnvironment().getProperty("ax.scheduler.schedules.fire-ahead-ms", "0")));
            line.put(
                    "fire_threads",
                    Integer.parseInt(
                            node.context().getEnvironment().getProperty("ax.scheduler.schedules.fire-threads", "1")));
            line.put("jobs_made", jobsMade);
            line.put("event_rows_per_fire", jobsMade == 0 ? null : round((double) events / jobsMade));
            line.put("statements_per_fire", jobsMade == 0 ? null : round((double) questions / jobsMade));
            return line;
        }
    }

    /** The JIT compilers' accumulated time in this JVM, ms (summed over the compiler threads), or 0 if not told. */
    private static long jitMs() {
        var jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
    }

    /** The peers' Fires.stats over the runs recorded: slots of [fromMs, toMs), first run per slot, runs beyond it. */
    private static void putFires(Map<String, Object> line, BenchHandler handler, long[] first, long fromMs, long toMs) {
        long expected = 0;
        for (long p : first) {
            long from = Math.max(0, Math.floorDiv(fromMs - p + PERIOD_MS - 1, PERIOD_MS));
            long end = Math.max(0, Math.floorDiv(toMs - p + PERIOD_MS - 1, PERIOD_MS));
            expected += Math.max(0, end - from);
        }
        Map<Long, Long> firstStart = new HashMap<>();
        int fires = 0, n = handler.firesRecorded();
        for (int r = 0; r < n; r++) {
            long t = handler.fireIntendedMs(r);
            if (t < fromMs || t >= toMs) continue;
            fires++;
            int id = handler.fireSchedule(r);
            long key = ((long) id << 32) | ((t - first[id]) / PERIOD_MS);
            firstStart.merge(key, handler.fireStartMs(r), Math::min);
        }
        long[] lag = new long[firstStart.size()];
        int i = 0, early = 0;
        for (Map.Entry<Long, Long> e : firstStart.entrySet()) {
            int id = (int) (e.getKey() >>> 32);
            long slot = e.getKey() & 0xffffffffL;
            lag[i] = e.getValue() - (first[id] + slot * PERIOD_MS);
            if (lag[i++] < 0) early++;
        }
        Arrays.sort(lag);
        line.put("fires", fires);
        line.put("expected_fires", expected);
        line.put("missed", expected - lag.length);
        line.put("duplicates", fires - lag.length);
        putPercentiles(line, lag);
        line.put("early", early);
        if (handler.fireRecords() > n) line.put("dropped_records", handler.fireRecords() - n);
        String dump = env("W3_DUMP", "");
        if (!dump.isEmpty()) dumpLagBySecond(dump, handler, first, fromMs, toMs);
    }

    /**
     * W3_DUMP=file: per second of intended fire time in the window, the fires and their lag p50 / p99 / max (ms), as
     * CSV, to see when in a run the lag comes (JIT warm-up, a backlog, a pause) rather than only how much.
     */
    private static void dumpLagBySecond(String file, BenchHandler handler, long[] first, long fromMs, long toMs) {
        List<long[]> dueAndLag = new ArrayList<>();
        for (int r = 0; r < handler.firesRecorded(); r++) {
            long t = handler.fireIntendedMs(r);
            if (t >= fromMs && t < toMs) dueAndLag.add(new long[] {t, handler.fireStartMs(r) - t});
        }
        dumpLagBySecond(file, fromMs, dueAndLag);
    }

    /** Per second after {@code fromMs} of due time: how many, and the lag's p50 / p99 / max (ms), as CSV. */
    private static void dumpLagBySecond(String file, long fromMs, List<long[]> dueAndLag) {
        Map<Long, List<Long>> bySecond = new TreeMap<>();
        for (long[] one : dueAndLag)
            bySecond.computeIfAbsent((one[0] - fromMs) / 1000, s -> new ArrayList<>())
                    .add(one[1]);
        StringBuilder csv = new StringBuilder("second,count,p50_ms,p99_ms,max_ms\n");
        bySecond.forEach((second, lags) -> {
            long[] sorted = lags.stream().mapToLong(Long::longValue).sorted().toArray();
            csv.append(second)
                    .append(',')
                    .append(sorted.length)
                    .append(',')
                    .append(percentile(sorted, 50))
                    .append(',')
                    .append(percentile(sorted, 99))
                    .append(',')
                    .append(sorted[sorted.length - 1])
                    .append('\n');
        });
        try {
            Files.writeString(Path.of(file), csv);
        } catch (IOException e) {
            progress("dump " + file + ": " + e);
        }
    }

    /**
     * The event store's word on W3, over every fire of the run (not only the window): jobs started more than once, and
     * fire times of a schedule that made more than one job or a job that no ScheduleFired names.
     */
    private static void putScheduleExactlyOnce(Map<String, Object> line, Node node) {
        JdbcTemplate jdbc = node.jdbc();
        Long startEvents = jdbc.queryForObject(
                "SELECT COUNT(*) FROM DomainEventEntry WHERE payloadType LIKE '%.JobStarted'", Long.class);
        Long startedJobs = jdbc.queryForObject(
                "SELECT COUNT(DISTINCT aggregateIdentifier) FROM DomainEventEntry"
                        + " WHERE payloadType LIKE '%.JobStarted'",
                Long.class);
        Long jobsPerSlotExtra = jdbc.queryForObject(
                "SELECT COUNT(*) - COUNT(DISTINCT schedule_id, run_at) FROM job_queue"
                        + " WHERE schedule_id IS NOT NULL",
                Long.class);
        // one statement, one snapshot: a batch of fires committing between two counts would look like a fire without
        // its job
        Long firesWithoutOneJob = jdbc.queryForObject(
                "SELECT (SELECT COUNT(*) FROM DomainEventEntry WHERE payloadType LIKE '%.ScheduleFired')"
                        + " - (SELECT COUNT(*) FROM job_queue WHERE schedule_id IS NOT NULL)",
                Long.class);
        line.put("db_started_twice", startEvents - startedJobs);
        line.put("db_jobs_per_fire_time_extra", jobsPerSlotExtra);
        line.put("db_fires_without_one_job", Math.abs(firesWithoutOneJob));
    }

    private void putExactlyOnce(Map<String, Object> line, Node node, List<String> ids) {
        JdbcTemplate jdbc = node.jdbc();
        Integer startedJobs = jdbc.queryForObject(
                "SELECT COUNT(DISTINCT aggregateIdentifier) FROM DomainEventEntry"
                        + " WHERE payloadType LIKE '%.JobStarted'",
                Integer.class);
        Integer startEvents = jdbc.queryForObject(
                "SELECT COUNT(*) FROM DomainEventEntry WHERE payloadType LIKE '%.JobStarted'", Integer.class);
        Integer succeededTwice = jdbc.queryForObject(
                "SELECT COUNT(*) FROM (SELECT aggregateIdentifier FROM DomainEventEntry"
                        + " WHERE payloadType LIKE '%.JobSucceeded' GROUP BY aggregateIdentifier HAVING COUNT(*) > 1) t",
                Integer.class);
        int missing = ids.size() - startedJobs;
        int duplicates = (startEvents - startedJobs) + succeededTwice + node.handler.duplicates();
        line.put("missing", missing);
        line.put("duplicates", duplicates);
        line.put("exactly_once", missing == 0 && duplicates == 0);
    }

    private void putCosts(Map<String, Object> line, Node node, int jobs, long questions) {
        Map<String, Object> store = node.jdbc()
                .queryForMap("SELECT COUNT(*) n_rows,"
                        + " COALESCE(SUM(LENGTH(payload) + COALESCE(LENGTH(metaData), 0) + LENGTH(payloadType) + LENGTH(eventIdentifier)"
                        + " + LENGTH(aggregateIdentifier) + LENGTH(timeStamp)), 0) n_bytes FROM DomainEventEntry");
        line.put("event_rows_per_job", round(((Number) store.get("n_rows")).doubleValue() / jobs));
        line.put("event_bytes_per_job", round(((Number) store.get("n_bytes")).doubleValue() / jobs));
        line.put("statements_per_job", round((double) questions / jobs));
    }

    private static void putPercentiles(Map<String, Object> line, long[] sorted) {
        line.put("p50_ms", percentile(sorted, 50));
        line.put("p99_ms", percentile(sorted, 99));
        line.put("max_ms", sorted.length == 0 ? null : sorted[sorted.length - 1]);
        line.put("min_ms", sorted.length == 0 ? null : sorted[0]);
    }

    private static Long percentile(long[] sorted, int p) {
        if (sorted.length == 0) return null;
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    private Map<String, Object> head(String workload, Node node) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("system", "ax-scheduler");
        line.put("workload", workload);
        line.put("jdbc", base.substring(0, base.indexOf("://")));
        line.put(
                "innodb_flush_log_at_trx_commit",
                node.jdbc().queryForObject("SELECT @@innodb_flush_log_at_trx_commit", Integer.class));
        line.put("log_bin", node.jdbc().queryForObject("SELECT @@log_bin", Integer.class));
        return line;
    }

    private static void awaitStarts(BenchHandler handler, int expected, Duration timeout, String workload)
            throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        long lastReport = 0;
        while (handler.firstStartMs.size() < expected && System.currentTimeMillis() < deadline) {
            if (System.currentTimeMillis() - lastReport > 1000) {
                progress(workload + " started " + handler.firstStartMs.size() + "/" + expected);
                lastReport = System.currentTimeMillis();
            }
            Thread.sleep(20);
        }
        progress(workload + " started " + handler.firstStartMs.size() + "/" + expected);
    }

    private static void awaitTerminal(Node node, int expected, Duration timeout) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        while (System.currentTimeMillis() < deadline
                && node.jdbc()
                                .queryForObject(
                                        "SELECT COUNT(*) FROM job_queue WHERE status = 'SUCCEEDED'", Integer.class)
                        < expected) {
            Thread.sleep(100);
        }
    }

    private Node start() throws Exception {
        try (Connection c = DriverManager.getConnection(base, user, password)) {
            c.createStatement().execute("DROP DATABASE IF EXISTS " + database);
            c.createStatement().execute("CREATE DATABASE " + database);
        }
        BenchHandler handler = new BenchHandler();
        // authentication is on: the node starts with an admin key made for this run alone, which the requests send
        String adminKey = randomSecret();
        ConfigurableApplicationContext context = new SpringApplicationBuilder(AxSchedulerApplication.class)
                .initializers(ctx -> ctx.getBeanFactory().registerSingleton("benchHandler", handler))
                .run(
                        "--spring.datasource.url=" + base + database,
                        "--spring.datasource.username=" + user,
                        "--spring.datasource.password=" + password,
                        "--spring.datasource.hikari.maximum-pool-size=20",
                        "--spring.datasource.hikari.minimum-idle=20",
                        "--ax.scheduler.execution.threads-per-type=16",
                        "--server.port=0",
                        "--ax.node.id=bench",
                        "--ax.bootstrap.admin-key=" + adminKey,
                        "--ax.bootstrap.admin-password=" + randomSecret(),
                        "--ax.data-dir=" + Files.createTempDirectory("ax-bench-data"),
                        "--logging.level.root=WARN",
                        "--spring.main.banner-mode=off");
        return new Node(context, handler, adminKey);
    }

    /** 256 random bits, URL-safe Base64. */
    private static String randomSecret() {
        byte[] bytes = new byte[32];
        new java.security.SecureRandom().nextBytes(bytes);
        return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private record Node(ConfigurableApplicationContext context, BenchHandler handler, String adminKey)
            implements AutoCloseable {

        int port() {
            return ((ServletWebServerApplicationContext) context).getWebServer().getPort();
        }

        ScanDueJobs scanner() {
            return context.getBean(ScanDueJobs.class);
        }

        ScanSchedules schedules() {
            return context.getBean(ScanSchedules.class);
        }

        long eventRows() {
            return jdbc().queryForObject("SELECT COUNT(*) FROM DomainEventEntry", Long.class);
        }

        long scheduledJobs() {
            return jdbc().queryForObject("SELECT COUNT(*) FROM job_queue WHERE schedule_id IS NOT NULL", Long.class);
        }

        JdbcTemplate jdbc() {
            return context.getBean(JdbcTemplate.class);
        }

        long questions() {
            return jdbc().queryForObject(
                            "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'QUESTIONS'",
                            Long.class);
        }

        long lastSucceededMs() {
            Long last = jdbc().queryForObject(
                            "SELECT MAX(updated_at) FROM job_queue WHERE status = 'SUCCEEDED'", Long.class);
            return last == null ? 0 : last;
        }

        /** One job of type bench due at {@code runAt}, through the command gateway: what an embedding service sends. */
        String submit(Instant runAt) {
            String jobId = TimeOrderedIds.next(System.currentTimeMillis());
            SubmitJob job = new SubmitJob(
                    jobId, null, "bench", Map.of(), 0, runAt, RetryPolicy.defaults(), 30_000, null, null, null);
            context.getBean(CommandGateway.class)
                    .sendAndWait(
                            GenericCommandMessage.asCommandMessage(job).andMetaData(Map.of(Metadata.ACTOR, "bench")));
            return jobId;
        }

        JsonNode post(String path, String json) {
            try {
                HttpResponse<String> response = HTTP.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port() + path))
                                .header("Content-Type", "application/json")
                                .header("Authorization", "Bearer " + adminKey)
                                .timeout(Duration.ofSeconds(120))
                                .POST(HttpRequest.BodyPublishers.ofString(json))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() >= 300)
                    throw new IllegalStateException(
                            path + " answered " + response.statusCode() + ": " + response.body());
                return JSON.readTree(response.body());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void close() {
            context.close();
        }
    }

    /** CPU ms of this JVM so far by thread name (numbers dropped), largest first, 50 ms or more; "other" is the JIT, GC and VM. */
    private static Map<String, Long> cpuByThread() {
        return largestFirst(cpuMsByThread(), 50);
    }

    /** CPU ms of this JVM so far by thread name (numbers dropped), every thread; "other" is the JIT, GC and VM. */
    private static Map<String, Long> cpuMsByThread() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Map<String, Long> byName = new HashMap<>();
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            long ms = info == null ? 0 : threads.getThreadCpuTime(info.getThreadId()) / 1_000_000;
            if (ms > 0) byName.merge(info.getThreadName().replaceAll("[-#]?\\d+$", ""), ms, Long::sum);
        }
        long processMs =
                ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime() / 1_000_000;
        byName.put(
                "other",
                processMs - byName.values().stream().mapToLong(Long::longValue).sum());
        return byName;
    }

    /**
     * CPU ms by thread name spent since {@code before} (a {@link #cpuMsByThread()} reading), largest first; threads that
     * spent under 20 ms (a tick or two) are left out.
     */
    private static Map<String, Long> since(Map<String, Long> before) {
        Map<String, Long> spent = new HashMap<>();
        cpuMsByThread().forEach((name, ms) -> spent.put(name, ms - before.getOrDefault(name, 0L)));
        return largestFirst(spent, 20);
    }

    private static Map<String, Long> largestFirst(Map<String, Long> ms, long atLeast) {
        Map<String, Long> largestFirst = new LinkedHashMap<>();
        ms.entrySet().stream()
                .filter(e -> e.getValue() >= atLeast)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> largestFirst.put(e.getKey(), e.getValue()));
        return largestFirst;
    }

    /** The machine's busy and idle CPU ticks so far, from /proc/stat (Linux); empty elsewhere. */
    private static long[] machineCpuTicks() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            // user nice system idle iowait irq softirq steal: guest time is already counted in user
            long total = 0;
            for (int i = 1; i <= Math.min(8, f.length - 1); i++) total += Long.parseLong(f[i]);
            long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
            return new long[] {total - idle, idle};
        } catch (Exception e) {
            return new long[0];
        }
    }

    /** "busy / idle" ticks of the machine since {@code before} (a {@link #machineCpuTicks()} reading), or "n/a". */
    private static String busyAndIdle(long[] before) {
        long[] now = machineCpuTicks();
        return before.length == 0 || now.length == 0 ? "n/a" : (now[0] - before[0]) + " / " + (now[1] - before[1]);
    }

    /**
     * CPU ticks so far of this JVM's threads by their OS name, from /proc/self/task (Linux; empty elsewhere): the JIT
     * compilers and GC workers, which the JVM's thread bean does not see.
     */
    private static Map<String, Long> vmThreadTicks() {
        Map<String, Long> ticks = new HashMap<>();
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            tasks.forEach(task -> {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
                            .replaceAll("[#\\d]+$", "")
                            .trim();
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    ticks.merge(name, Long.parseLong(f[11]) + Long.parseLong(f[12]), Long::sum);
                } catch (Exception ignored) {
                    // the thread ended meanwhile
                }
            });
        } catch (Exception e) {
            return Map.of();
        }
        return ticks;
    }

    /** Ticks the JIT compiler, GC and VM threads spent since {@code before} (a {@link #vmThreadTicks()} reading). */
    private static String vmThreadsSince(Map<String, Long> before) {
        Map<String, Long> spent = new LinkedHashMap<>();
        vmThreadTicks().forEach((name, ticks) -> {
            boolean vm = name.contains("Compiler")
                    || name.startsWith("GC")
                    || name.startsWith("G1")
                    || name.startsWith("VM");
            long delta = ticks - before.getOrDefault(name, 0L);
            if (vm && delta > 0) spent.put(name, delta);
        });
        return spent.toString();
    }

    private static void progress(String message) {
        System.err.println("[bench] " + message);
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }
}
