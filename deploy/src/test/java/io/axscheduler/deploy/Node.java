package io.axscheduler.deploy;

import io.axscheduler.scheduler.claim.ScanDueJobs;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/** A whole scheduler node started in this JVM on a given database, as production starts it, on a random port. */
final class Node implements AutoCloseable {

    /** The password of the console user {@code admin} on every test node. */
    static final String ADMIN_PASSWORD = "test-admin-password";

    final ConfigurableApplicationContext context;
    final Api api;
    final String id;

    private Node(ConfigurableApplicationContext context, String id) {
        this.context = context;
        this.id = id;
        this.api = new Api(
                ((ServletWebServerApplicationContext) context).getWebServer().getPort());
    }

    static Node start(String databaseUrl, String id, Map<String, String> settings) {
        return start(databaseUrl, id, settings, context -> {});
    }

    /** A node with {@code beans} registering beans of the test's own (a resolver, say) before the context starts. */
    static Node start(
            String databaseUrl,
            String id,
            Map<String, String> settings,
            ApplicationContextInitializer<ConfigurableApplicationContext> beans) {
        AxSchedulerApplication.quietAxon();
        Map<String, String> all = new LinkedHashMap<>();
        all.put("spring.datasource.url", databaseUrl);
        all.put("spring.datasource.username", TestDatabase.user());
        all.put("spring.datasource.password", TestDatabase.password());
        all.put("server.port", "0");
        all.put("ax.node.id", id);
        all.put("spring.datasource.hikari.maximum-pool-size", "10");
        all.put("spring.datasource.hikari.minimum-idle", "1");
        // the workers the tests start listen on loopback, which no address setting admits by default
        all.put("ax.workers.allowed-addresses", "127.0.0.1/32");
        // every endpoint needs a key: the tests' clients (Api, ScheduleHttp, WorkerNode) send this one
        all.put("ax.bootstrap.admin-key", Api.ADMIN_KEY);
        all.put("ax.bootstrap.admin-password", ADMIN_PASSWORD);
        all.put("ax.data-dir", "target/node-data");
        all.putAll(settings);
        List<String> args = new ArrayList<>();
        all.forEach((k, v) -> args.add("--" + k + "=" + v));
        ConfigurableApplicationContext context = new SpringApplicationBuilder(AxSchedulerApplication.class)
                .initializers(beans)
                .run(args.toArray(String[]::new));
        return new Node(context, id);
    }

    static Node start(String databaseUrl, String id) {
        return start(databaseUrl, id, Map.of());
    }

    JdbcTemplate jdbc() {
        return context.getBean(JdbcTemplate.class);
    }

    <T> T bean(Class<T> type) {
        return context.getBean(type);
    }

    <T> T bean(String name, Class<T> type) {
        return context.getBean(name, type);
    }

    /**
     * Pauses this node's job scan and waits for a pass to end: one already under way when the pause came could still
     * claim a job submitted after it. The scan is returned, to resume.
     */
    ScanDueJobs pauseJobScan() {
        ScanDueJobs scan = bean(ScanDueJobs.class);
        scan.pauseScanning();
        Instant pausedAt = scan.lastCompletedScan();
        Await.until(
                Duration.ofSeconds(10),
                () -> scan.lastCompletedScan().isAfter(pausedAt),
                () -> "no scan pass ended since the pause");
        return scan;
    }

    @Override
    public void close() {
        context.close();
    }
}
