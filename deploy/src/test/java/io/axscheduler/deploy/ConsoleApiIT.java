package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import io.axscheduler.query.stream.StreamHub;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.axonframework.config.EventProcessingConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The console's JSON over real HTTP: the statistics, their rebuild by replay, and the change stream. */
class ConsoleApiIT {

    static Node node;
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void start() {
        node = Node.start(
                TestDatabase.freshDatabase("console_api"),
                "stats-node",
                // a closed client is noticed at the next heartbeat: soon here, so the idle reader stops soon
                Map.of("ax.console.stream.idle-stop-ms", "500", "ax.console.stream.heartbeat-ms", "200"));
    }

    @AfterAll
    static void stop() {
        node.close();
    }

    static long sum(JsonNode overview, String series, String field) {
        long sum = 0;
        for (JsonNode point : overview.path(series)) sum += point.path(field).asLong();
        return sum;
    }

    static long total(String status) {
        return node.api
                .get("/api/v1/jobs?status=" + status + "&size=1")
                .body()
                .path("total")
                .asLong();
    }

    static JsonNode overview() {
        return node.api.get("/api/v1/stats/overview").body();
    }

    @Test
    void a_node_no_longer_seen_is_gone_whatever_it_last_said_of_its_health() {
        // a node that reported UP and then was killed: its row stays as it last wrote it
        long minuteAgo = System.currentTimeMillis() - 60_000;
        node.jdbc()
                .update(
                        "INSERT INTO console_nodes (node_id, started_at, last_seen, health, last_scan)"
                                + " VALUES ('killed-node', ?, ?, 'UP', ?)",
                        minuteAgo - 60_000,
                        minuteAgo,
                        minuteAgo);
        JsonNode killed = null;
        for (JsonNode n : node.api.get("/api/v1/stats/overview").body().path("nodes")) {
            if (n.path("nodeId").asText().equals("killed-node")) killed = n;
        }
        assertThat(killed).as("the killed node's row").isNotNull();
        assertThat(killed.path("alive").asBoolean()).isFalse();
        assertThat(killed.path("health").asText()).isEqualTo("GONE");
        node.jdbc().update("DELETE FROM console_nodes WHERE node_id = 'killed-node'");
    }

    @Test
    void outcomes_are_counted_per_minute_and_rebuilt_by_replay() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) ids.add(node.api.submit("{\"jobType\":\"noop\"}"));
        String failing = node.api.submit("{\"jobType\":\"flaky\",\"params\":{\"failTimes\":9},\"maxRetries\":0}");
        for (String id : ids) node.api.awaitStatus(id, "SUCCEEDED");
        node.api.awaitStatus(failing, "FAILED");

        // every job of this node's database ran in the last hour, each once: the buckets must add up to the lists
        long succeeded = total("SUCCEEDED");
        long created = succeeded + 1;
        assertThat(succeeded).isGreaterThanOrEqualTo(5);
        Await.until(
                Duration.ofSeconds(20),
                () -> sum(overview(), "perMinute", "succeeded") == succeeded
                        && sum(overview(), "perMinute", "failed") == 1,
                () -> overview().path("perMinute").toString());
        JsonNode o = overview();
        assertThat(sum(o, "perMinute", "created")).isEqualTo(created);
        assertThat(sum(o, "perHour", "succeeded")).isEqualTo(succeeded);
        assertThat(o.path("failuresByType24h").get(0).path("jobType").asText()).isEqualTo("flaky");
        assertThat(o.path("startLag").path("starts").asLong()).isEqualTo(created);
        assertThat(o.path("startLag").path("p99Ms").isNumber()).isTrue();
        assertThat(o.path("counts").path("SUCCEEDED").asLong()).isEqualTo(succeeded);
        assertThat(o.path("nodes").get(0).path("nodeId").asText()).isEqualTo("stats-node");
        assertThat(o.path("nodes").get(0).path("alive").asBoolean()).isTrue();

        // wrong figures in the table are replaced by what the event store says
        node.jdbc().update("UPDATE stats_outcomes SET jobs = jobs + 100");
        assertThat(sum(overview(), "perMinute", "succeeded")).isGreaterThan(succeeded + 99);
        // a segment's owner names the node (a refusal to rebuild while another node holds one says which)
        assertThat(node.jdbc()
                        .queryForList(
                                "SELECT owner FROM TokenEntry WHERE processorName = 'console-stats' AND owner IS NOT NULL",
                                String.class))
                .isNotEmpty()
                .allSatisfy(owner -> assertThat(owner).startsWith(node.id + " ("));
        Api.Response rebuilt = node.api.post("/api/v1/admin/projections/console-stats/rebuild", "{}");
        assertThat(rebuilt.status()).isEqualTo(200);
        Await.until(
                Duration.ofSeconds(20),
                () -> sum(overview(), "perMinute", "succeeded") == succeeded
                        && sum(overview(), "perMinute", "failed") == 1,
                () -> overview().path("perMinute").toString());

        assertThat(node.api
                        .post("/api/v1/admin/projections/nothing/rebuild", "{}")
                        .status())
                .isEqualTo(404);
    }

    @Test
    void the_stream_sends_a_jobs_changes_in_order_and_filters_by_job() throws Exception {
        List<String> all = new CopyOnWriteArrayList<>();
        List<String> other = new CopyOnWriteArrayList<>();
        Thread everything = listen("/api/v1/stream", all);
        Thread filtered = listen("/api/v1/stream?jobId=no-such-job", other);
        try {
            Await.until(Duration.ofSeconds(10), () -> all.contains(":open") && other.contains(":open"), all::toString);
            String jobId = node.api.submit("{\"jobType\":\"noop\"}");
            node.api.awaitStatus(jobId, "SUCCEEDED");
            Await.until(
                    Duration.ofSeconds(10),
                    () -> all.stream().anyMatch(l -> l.contains(jobId) && l.contains("JobSucceeded")),
                    all::toString);
            List<String> events = all.stream()
                    .filter(l -> l.contains(jobId))
                    .map(l -> l.replaceAll(".*\"event\":\"(\\w+)\".*", "$1"))
                    .toList();
            assertThat(events).containsExactly("JobCreated", "JobClaimed", "JobStarted", "JobSucceeded");
            assertThat(other).noneMatch(l -> l.contains(jobId));
        } finally {
            everything.interrupt();
            filtered.interrupt();
        }
        Api.Response bad = node.api.get("/api/v1/stream?events=bogus");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.contentType()).startsWith("application/problem+json");
        assertThat(bad.body().toString()).contains("events");
    }

    @Test
    void a_keys_stream_ends_quietly_when_its_client_goes() throws Exception {
        StreamHub hub = node.context.getBean(StreamHub.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.addAppender(logged);
        try {
            // the streams of the tests before end at their next heartbeat
            Await.until(
                    Duration.ofSeconds(10),
                    () -> hub.subscriberCount() == 0,
                    () -> hub.subscriberCount() + " subscribers");
            List<String> heard = new CopyOnWriteArrayList<>();
            Thread stream = listen("/api/v1/stream", heard);
            Await.until(Duration.ofSeconds(10), () -> heard.contains(":open"), heard::toString);
            stream.interrupt();
            // the next heartbeat finds the client gone; the stream's end is dispatched once more, without the key
            Await.until(
                    Duration.ofSeconds(10),
                    () -> hub.subscriberCount() == 0,
                    () -> hub.subscriberCount() + " subscribers");
            Thread.sleep(1000);
            assertThat(logged.list)
                    .filteredOn(e -> e.getLevel().isGreaterOrEqual(Level.ERROR)
                            && (e.getLoggerName().startsWith("org.apache.catalina")
                                    || e.getLoggerName().startsWith("org.springframework.security")
                                    || e.getLoggerName().startsWith("io.axscheduler.query.stream")))
                    .extracting(ILoggingEvent::getFormattedMessage)
                    .isEmpty();
        } finally {
            root.detachAppender(logged);
        }
    }

    @Test
    void a_caller_with_some_namespaces_hears_counts_and_explains_only_those() throws Exception {
        Api viewer = node.api.as(node.api.newKey("team-x-viewer", "team-x", "VIEWER"));
        List<String> heard = new CopyOnWriteArrayList<>();
        Thread stream = EventStream.listen(viewer, "/api/v1/stream", heard);
        String other;
        String mine;
        try {
            Await.until(Duration.ofSeconds(10), () -> heard.contains(":open"), heard::toString);
            other = node.api.submit("{\"namespace\":\"team-y\",\"jobType\":\"noop\"}");
            mine = node.api.submit("{\"namespace\":\"team-x\",\"jobType\":\"noop\"}");
            node.api.awaitStatus(other, "SUCCEEDED");
            node.api.awaitStatus(mine, "SUCCEEDED");
            Await.until(
                    Duration.ofSeconds(10),
                    () -> heard.stream().anyMatch(l -> l.contains(mine) && l.contains("JobSucceeded")),
                    heard::toString);
            assertThat(heard).noneMatch(l -> l.contains(other));
            assertThat(heard.stream().filter(l -> l.contains(mine))).allMatch(l -> l.contains("\"team-x\""));
        } finally {
            stream.interrupt();
        }
        // why: for its own jobs, and a job it may not see does not exist for it
        assertThat(viewer.get("/api/v1/jobs/" + mine + "/explain").status()).isEqualTo(200);
        assertThat(viewer.get("/api/v1/jobs/" + other + "/explain").status()).isEqualTo(404);
        assertThat(node.api.get("/api/v1/jobs/" + other + "/explain").status()).isEqualTo(200);
        JsonNode counts = viewer.get("/api/v1/stats/overview").body().path("counts");
        assertThat(counts.path("SUCCEEDED").asLong()).isEqualTo(1);
        assertThat(viewer.get("/api/v1/stats/overview?namespace=team-y")
                        .body()
                        .path("counts")
                        .path("SUCCEEDED")
                        .asLong())
                .isZero();
        assertThat(node.api
                        .get("/api/v1/stats/overview?namespace=team-y")
                        .body()
                        .path("counts")
                        .path("SUCCEEDED")
                        .asLong())
                .isEqualTo(1);
        // the nodes' running jobs are counted in its namespaces only: team-y's running job is not its to see
        String running = node.api.submit("{\"namespace\":\"team-y\",\"jobType\":\"sleep\",\"params\":{\"ms\":3000}}");
        node.api.awaitStatus(running, "RUNNING");
        assertThat(runningOnNodes(node.api.get("/api/v1/stats/overview").body()))
                .isEqualTo(1);
        assertThat(runningOnNodes(viewer.get("/api/v1/stats/overview").body())).isZero();
        node.api.awaitStatus(running, "SUCCEEDED");
    }

    private static long runningOnNodes(JsonNode overview) {
        long running = 0;
        for (JsonNode n : overview.path("nodes")) running += n.path("running").asLong();
        return running;
    }

    @Test
    void the_stream_reads_the_event_store_only_while_somebody_listens() throws Exception {
        Await.until(Duration.ofSeconds(10), () -> !streamReaderRunning(), () -> "console-stream still running");
        for (int round = 0; round < 2; round++) {
            List<String> heard = new CopyOnWriteArrayList<>();
            // a socket of its own, closed at the end: the server notices the closed client at its next heartbeat
            try (Socket socket = new Socket("127.0.0.1", node.api.port)) {
                socket.getOutputStream()
                        .write(("GET /api/v1/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                                        + "Authorization: Bearer " + node.api.key + "\r\n\r\n")
                                .getBytes(StandardCharsets.US_ASCII));
                BufferedReader reader =
                        new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
                Thread reading = new Thread(() -> {
                    try {
                        reader.lines().forEach(heard::add);
                    } catch (UncheckedIOException closed) {
                        // the socket closed at the end of the round
                    }
                });
                reading.setDaemon(true);
                reading.start();
                Await.until(
                        Duration.ofSeconds(10),
                        () -> heard.stream().anyMatch(l -> l.contains("ax-scheduler stream")),
                        heard::toString);
                assertThat(streamReaderRunning()).isTrue();
                // submitted right after the subscription was answered: the reader started before that, not after
                String jobId = node.api.submit("{\"jobType\":\"noop\"}");
                Await.until(
                        Duration.ofSeconds(10),
                        () -> heard.stream().anyMatch(l -> l.contains(jobId) && l.contains("JobSucceeded")),
                        heard::toString);
                assertThat(heard.stream()
                                .filter(l -> l.contains(jobId))
                                .findFirst()
                                .orElseThrow())
                        .contains("JobCreated");
            }
            Await.until(Duration.ofSeconds(10), () -> !streamReaderRunning(), () -> "console-stream still running");
        }
    }

    private static boolean streamReaderRunning() {
        return node.context
                .getBean(EventProcessingConfiguration.class)
                .eventProcessor("console-stream")
                .orElseThrow()
                .isRunning();
    }

    /** Reads the stream's data lines into {@code lines} on a thread of its own; ":open" once the stream answered. */
    private static Thread listen(String path, List<String> lines) {
        return EventStream.listen(node.api, path, lines);
    }
}
