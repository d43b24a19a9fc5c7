package io.axscheduler.deploy.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.deploy.AxSchedulerApplication;
import io.axscheduler.scheduler.scan.ScanDueJobs;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The workloads of BENCHMARK.md against a whole ax-scheduler node — event store, job_queue projection, scanner,
 * saga, db-scheduler deadlines, pools: nothing switched off — on the server of {@code BENCH_JDBC_URL}. One JSON line
 * per workload on stdout, progress on stderr. Exactly-once is read from the event store, not assumed.
 */
public final class Benchmark {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final String base = env("BENCH_JDBC_URL", "jdbc:mariadb://127.0.0.1:3306/");
    private final String user = env("BENCH_DB_USER", "root");
    private final String password = env("BENCH_DB_PASSWORD", "");
    private final String database = env("BENCH_DB_NAME", "ax_bench");

    public static void main(String[] args) throws Exception {
        AxSchedulerApplication.quietAxon();
        List<String> workloads = args.length == 0 ? List.of("W1", "W2") : Arrays.asList(args);
        Benchmark bench = new Benchmark();
        for (String workload : workloads) {
            Map<String, Object> line;
            try {
                line = switch (workload) {
                    case "W1" -> bench.w1(Integer.parseInt(env("W1_JOBS", "10000")));
                    case "W2" -> bench.w2(Integer.parseInt(env("W2_SECONDS", "20")), Integer.parseInt(env("W2_RATE", "200")),
                            Long.parseLong(env("W2_LEAD_MS", "2000")));
                    default -> throw new IllegalArgumentException("unknown workload " + workload + " (W1, W2)");
                };
            } catch (Exception e) {
                e.printStackTrace();
                line = new LinkedHashMap<>(Map.of("system", "ax-scheduler", "workload", workload, "error", e.toString()));
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
                JsonNode answer = node.post("/api/v1/jobs/batch", body.append("]}").toString());
                answer.path("results").forEach(r -> ids.add(r.path("jobId").asText()));
                progress("W1 submitted " + ids.size() + "/" + jobs);
            }
            double insertS = (System.currentTimeMillis() - submitStart) / 1000.0;
            long questionsBefore = node.questions();
            long scanStart = System.currentTimeMillis();
            node.scanner().resumeScanning();
            awaitStarts(node.handler, jobs, Duration.ofMinutes(10), "W1");
            long lastStart = node.handler.firstStartMs.values().stream().mapToLong(Long::longValue).max().orElse(scanStart);
            awaitTerminal(node, jobs, Duration.ofMinutes(5));
            long questions = node.questions() - questionsBefore;
            long[] latencies = ids.stream().map(node.handler.firstStartMs::get).filter(t -> t != null)
                    .mapToLong(t -> t - scanStart).sorted().toArray();
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
            return line;
        }
    }

    /** W2: for S seconds, R jobs a second, each due {@code leadMs} after its submission; latency = start − due. */
    Map<String, Object> w2(int seconds, int rate, long leadMs) throws Exception {
        try (Node node = start()) {
            Map<String, Long> dueMs = new ConcurrentHashMap<>();
            ExecutorService submitters = Executors.newFixedThreadPool(4);
            ScheduledExecutorService pacer = Executors.newSingleThreadScheduledExecutor();
            int total = seconds * rate;
            long startedAt = System.currentTimeMillis();
            long periodMicros = 1_000_000L / rate;
            for (int i = 0; i < total; i++) {
                pacer.schedule(() -> submitters.execute(() -> {
                    Instant due = Instant.ofEpochMilli(System.currentTimeMillis() + leadMs);
                    JsonNode answer = node.post("/api/v1/jobs", "{\"jobType\":\"bench\",\"runAt\":\"" + due + "\"}");
                    dueMs.put(answer.path("jobId").asText(), due.toEpochMilli());
                }), i * periodMicros, TimeUnit.MICROSECONDS);
            }
            pacer.shutdown();
            pacer.awaitTermination(seconds + 60L, TimeUnit.SECONDS);
            submitters.shutdown();
            submitters.awaitTermination(120, TimeUnit.SECONDS);
            double submitRate = total / ((System.currentTimeMillis() - startedAt) / 1000.0);
            awaitStarts(node.handler, total, Duration.ofMillis(leadMs + 30_000), "W2");
            Thread.sleep(1_000); // late duplicates
            List<String> ids = new ArrayList<>(dueMs.keySet());
            long[] latencies = ids.stream().filter(node.handler.firstStartMs::containsKey)
                    .mapToLong(id -> node.handler.firstStartMs.get(id) - dueMs.get(id)).sorted().toArray();
            Map<String, Object> line = head("W2", node);
            line.put("jobs", total);
            line.put("rate", rate);
            line.put("submit_rate", round(submitRate));
            putPercentiles(line, latencies);
            line.put("early", Arrays.stream(latencies).filter(l -> l < 0).count());
            putExactlyOnce(line, node, ids);
            return line;
        }
    }

    private void putExactlyOnce(Map<String, Object> line, Node node, List<String> ids) {
        JdbcTemplate jdbc = node.jdbc();
        Integer startedJobs = jdbc.queryForObject("SELECT COUNT(DISTINCT aggregateIdentifier) FROM DomainEventEntry"
                + " WHERE payloadType LIKE '%.JobStarted'", Integer.class);
        Integer startEvents = jdbc.queryForObject("SELECT COUNT(*) FROM DomainEventEntry WHERE payloadType LIKE '%.JobStarted'", Integer.class);
        Integer succeededTwice = jdbc.queryForObject("SELECT COUNT(*) FROM (SELECT aggregateIdentifier FROM DomainEventEntry"
                + " WHERE payloadType LIKE '%.JobSucceeded' GROUP BY aggregateIdentifier HAVING COUNT(*) > 1) t", Integer.class);
        int missing = ids.size() - startedJobs;
        int duplicates = (startEvents - startedJobs) + succeededTwice + node.handler.duplicates();
        line.put("missing", missing);
        line.put("duplicates", duplicates);
        line.put("exactly_once", missing == 0 && duplicates == 0);
    }

    private void putCosts(Map<String, Object> line, Node node, int jobs, long questions) {
        Map<String, Object> store = node.jdbc().queryForMap("SELECT COUNT(*) n_rows,"
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
        line.put("innodb_flush_log_at_trx_commit", node.jdbc().queryForObject("SELECT @@innodb_flush_log_at_trx_commit", Integer.class));
        line.put("log_bin", node.jdbc().queryForObject("SELECT @@log_bin", Integer.class));
        return line;
    }

    private static void awaitStarts(BenchHandler handler, int expected, Duration timeout, String workload) throws InterruptedException {
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
        while (System.currentTimeMillis() < deadline && node.jdbc().queryForObject(
                "SELECT COUNT(*) FROM job_queue WHERE status = 'SUCCEEDED'", Integer.class) < expected) {
            Thread.sleep(100);
        }
    }

    private Node start() throws Exception {
        try (Connection c = DriverManager.getConnection(base, user, password)) {
            c.createStatement().execute("DROP DATABASE IF EXISTS " + database);
            c.createStatement().execute("CREATE DATABASE " + database);
        }
        BenchHandler handler = new BenchHandler();
        ConfigurableApplicationContext context = new SpringApplicationBuilder(AxSchedulerApplication.class)
                .initializers(ctx -> ctx.getBeanFactory().registerSingleton("benchHandler", handler))
                .run("--spring.datasource.url=" + base + database,
                        "--spring.datasource.username=" + user,
                        "--spring.datasource.password=" + password,
                        "--spring.datasource.hikari.maximum-pool-size=20",
                        "--spring.datasource.hikari.minimum-idle=20",
                        "--ax.scheduler.execution.threads-per-type=16",
                        "--server.port=0",
                        "--ax.node.id=bench",
                        "--logging.level.root=WARN",
                        "--spring.main.banner-mode=off");
        return new Node(context, handler);
    }

    private record Node(ConfigurableApplicationContext context, BenchHandler handler) implements AutoCloseable {

        int port() {
            return ((ServletWebServerApplicationContext) context).getWebServer().getPort();
        }

        ScanDueJobs scanner() {
            return context.getBean(ScanDueJobs.class);
        }

        JdbcTemplate jdbc() {
            return context.getBean(JdbcTemplate.class);
        }

        long questions() {
            return jdbc().queryForObject("SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'QUESTIONS'", Long.class);
        }

        long lastSucceededMs() {
            Long last = jdbc().queryForObject("SELECT MAX(updated_at) FROM job_queue WHERE status = 'SUCCEEDED'", Long.class);
            return last == null ? 0 : last;
        }

        JsonNode post(String path, String json) {
            try {
                HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port() + path))
                        .header("Content-Type", "application/json").timeout(Duration.ofSeconds(120))
                        .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() >= 300) throw new IllegalStateException(path + " answered " + response.statusCode() + ": " + response.body());
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
