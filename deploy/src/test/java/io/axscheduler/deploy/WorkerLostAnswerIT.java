package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A push whose answer is lost on the way back (the worker read it and took the job; the connection broke before its
 * answer arrived) must not hand the job to another worker, which would run it a second time.
 */
class WorkerLostAnswerIT {

    static Node node;
    static AnswerDroppingProxy proxy;
    static WorkerNode behindProxy;
    static WorkerNode direct;
    static final Queue<WorkerNode.Run> runs = new ConcurrentLinkedQueue<>();

    @BeforeAll
    static void start() throws IOException {
        node = Node.start(TestDatabase.freshDatabase("worker_lost_answer"), "node-l");
        proxy = new AnswerDroppingProxy();
        behindProxy = WorkerNode.start(
                "behind-proxy", node.api.port, "lossy", runs, Map.of("ax.worker.address", proxy.url()));
        proxy.target = behindProxy.port();
        direct = WorkerNode.start("direct", node.api.port, "lossy", runs, Map.of());
        node.api.awaitWorkers(2, Duration.ofSeconds(20));
    }

    @AfterAll
    static void stop() throws IOException {
        if (behindProxy != null) behindProxy.close();
        if (direct != null) direct.close();
        if (proxy != null) proxy.close();
        if (node != null) node.close();
    }

    @Test
    void a_job_whose_push_answer_was_lost_runs_once_on_the_worker_that_took_it() {
        List<String> jobIds = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            jobIds.add(node.api.submit(
                    "{\"jobType\":\"sleep\",\"executorApp\":\"lossy\",\"routeStrategy\":\"ROUND_ROBIN\","
                            + "\"params\":{\"ms\":300},\"maxRetries\":0,\"timeoutMs\":30000}"));
        }
        node.api.awaitAllSucceeded(jobIds, Duration.ofSeconds(30));
        // round robin sends about half the jobs to the worker behind the proxy first; the proxy drops each one's
        // first answer after the worker has taken the push
        assertThat(proxy.dropped).as("jobs whose first push answer was lost").isNotEmpty();
        String behindId = behindProxy.workerId();
        for (String jobId : jobIds) {
            assertThat(runs.stream().filter(r -> r.jobId().equals(jobId)))
                    .as("runs of " + jobId)
                    .hasSize(1);
            if (proxy.dropped.contains(jobId)) {
                assertThat(node.api.get("/api/v1/jobs/" + jobId).text("worker"))
                        .as("the worker that took " + jobId)
                        .isEqualTo(behindId);
                assertThat(runs.stream()
                                .filter(r -> r.jobId().equals(jobId))
                                .findFirst()
                                .orElseThrow()
                                .worker())
                        .isEqualTo("behind-proxy");
            }
            assertThat(node.api.eventTypes(jobId)).doesNotContain("JobHandedBack", "JobTimedOut", "JobFailed");
        }
    }

    /**
     * Forwards each push to the worker and passes its answer back, except the first answer for each job: that
     * connection is closed without a word, as a network that broke after the request went through would leave it.
     */
    static final class AnswerDroppingProxy implements AutoCloseable {
        final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        final Set<String> dropped = ConcurrentHashMap.newKeySet();
        final HttpClient http = HttpClient.newHttpClient();
        final ObjectMapper json = new ObjectMapper();
        volatile int target;

        AnswerDroppingProxy() throws IOException {
            Thread acceptor = new Thread(this::accept, "answer-dropping-proxy");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getLocalPort();
        }

        private void accept() {
            while (!server.isClosed()) {
                try {
                    Socket socket = server.accept();
                    Thread serving = new Thread(() -> serve(socket), "answer-dropping-proxy-conn");
                    serving.setDaemon(true);
                    serving.start();
                } catch (IOException closed) {
                    return;
                }
            }
        }

        private void serve(Socket socket) {
            try (socket) {
                InputStream in = new BufferedInputStream(socket.getInputStream());
                String requestLine = line(in);
                Map<String, String> headers = new LinkedHashMap<>();
                for (String h = line(in); !h.isEmpty(); h = line(in)) {
                    int colon = h.indexOf(':');
                    headers.put(
                            h.substring(0, colon).trim().toLowerCase(Locale.ROOT),
                            h.substring(colon + 1).trim());
                }
                byte[] body = in.readNBytes(Integer.parseInt(headers.getOrDefault("content-length", "0")));
                HttpRequest.Builder forward = HttpRequest.newBuilder(URI.create(
                                "http://127.0.0.1:" + target + requestLine.split(" ")[1]))
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
                for (String name : List.of("content-type", "x-ax-timestamp", "x-ax-signature", "x-ax-answer-within-ms"))
                    if (headers.containsKey(name)) forward.header(name, headers.get(name));
                HttpResponse<byte[]> answer = http.send(forward.build(), HttpResponse.BodyHandlers.ofByteArray());
                String jobId = json.readTree(body).path("jobId").asText();
                if (dropped.add(jobId)) return; // the worker has the push; its answer goes nowhere
                OutputStream out = socket.getOutputStream();
                out.write(("HTTP/1.1 " + answer.statusCode() + " X\r\nContent-Type: application/json\r\n"
                                + "Content-Length: " + answer.body().length + "\r\nConnection: close\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                out.write(answer.body());
                out.flush();
            } catch (Exception e) {
                // the test sees what the node made of it
            }
        }

        private static String line(InputStream in) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            for (int c = in.read(); c != -1 && c != '\n'; c = in.read()) if (c != '\r') bytes.write(c);
            return bytes.toString(StandardCharsets.US_ASCII);
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
