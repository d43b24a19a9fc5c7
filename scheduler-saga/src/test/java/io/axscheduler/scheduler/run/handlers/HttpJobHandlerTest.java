package io.axscheduler.scheduler.run.handlers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.axscheduler.scheduler.net.RebindingHosts;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Calls a real HTTP server on a free loopback port. */
class HttpJobHandlerTest {

    private record Received(String method, String path, String idempotencyKey, String jobId, String body) {}

    private final Queue<Received> received = new ConcurrentLinkedQueue<>();
    private HttpServer server;
    private ExecutorService serverThreads;
    private String base;
    private volatile String redirectTo;
    private HttpJobHandler handler;

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::answer);
        serverThreads = Executors.newCachedThreadPool();
        server.setExecutor(serverThreads);
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
        handler = new HttpJobHandler(List.of("127.0.0.1"), 2_000, 2_000);
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
        serverThreads.shutdownNow();
    }

    private void answer(HttpExchange exchange) throws IOException {
        String body;
        try (InputStream in = exchange.getRequestBody()) {
            body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String path = exchange.getRequestURI().getPath();
        received.add(new Received(
                exchange.getRequestMethod(),
                path,
                exchange.getRequestHeaders().getFirst("Idempotency-Key"),
                exchange.getRequestHeaders().getFirst("X-Ax-Job-Id"),
                body));
        switch (path) {
            case "/fail" -> respond(exchange, 500, "oops");
            case "/missing" -> respond(exchange, 404, "no such thing");
            case "/redirect" -> {
                exchange.getResponseHeaders().add("Location", base + "/ok");
                respond(exchange, 302, "");
            }
            case "/redirect-away" -> {
                exchange.getResponseHeaders().add("Location", redirectTo);
                respond(exchange, 302, "");
            }
            case "/loop" -> {
                exchange.getResponseHeaders().add("Location", "/loop");
                respond(exchange, 307, "");
            }
            case "/long" -> respond(exchange, 200, "a".repeat(HttpJobHandler.MAX_RESULT + 100));
            case "/slow" -> {
                try {
                    Thread.sleep(3_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                respond(exchange, 200, "late");
            }
            default -> respond(exchange, 200, "done");
        }
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static TestJobContext call(String url) {
        return call(url, Map.of());
    }

    private static TestJobContext call(String url, Map<String, Object> more) {
        Map<String, Object> params = new HashMap<>(more);
        params.put("url", url);
        return new TestJobContext("http", 1, params);
    }

    @Test
    void its_type_is_http() {
        assertThat(handler.jobType()).isEqualTo("http");
    }

    @Test
    void a_host_not_on_the_allow_list_is_refused_without_being_called() {
        String sameServerOtherName = "http://localhost:" + server.getAddress().getPort() + "/ok";

        assertThatThrownBy(() -> handler.execute(call(sameServerOtherName)))
                .isInstanceOf(SecurityException.class)
                .hasMessageContaining("localhost");
        assertThat(received).isEmpty();
    }

    @Test
    void an_empty_allow_list_refuses_every_host() {
        HttpJobHandler closed = new HttpJobHandler(List.of(), 2_000, 2_000);

        assertThatThrownBy(() -> closed.execute(call(base + "/ok"))).isInstanceOf(SecurityException.class);
        assertThat(received).isEmpty();
    }

    @Test
    void allowed_hosts_are_matched_ignoring_case() throws Exception {
        HttpJobHandler upper = new HttpJobHandler(List.of("127.0.0.1", "EXAMPLE.INVALID"), 2_000, 2_000);

        assertThat(upper.execute(call(base + "/ok"))).isEqualTo("HTTP 200 done");
        assertThatThrownBy(() -> upper.execute(call("http://Example.Invalid:1/ok")))
                .isNotInstanceOf(SecurityException.class);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"ftp://127.0.0.1/file", "/relative/path", "127.0.0.1/ok", "file:///etc/passwd"})
    void a_url_that_is_not_absolute_http_is_refused(String url) {
        assertThatThrownBy(() -> handler.execute(call(url)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("params.url");
        assertThat(received).isEmpty();
    }

    @Test
    void a_missing_url_is_refused() {
        assertThatThrownBy(() -> handler.execute(new TestJobContext("http", 1, Map.of())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("params.url");
    }

    @Test
    void a_200_answer_succeeds_with_the_status_and_body_as_result() throws Exception {
        assertThat(handler.execute(call(base + "/ok"))).isEqualTo("HTTP 200 done");
        assertThat(received)
                .extracting(Received::method, Received::path)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("GET", "/ok"));
    }

    @Test
    void a_500_answer_fails_the_attempt_with_the_status_and_body() {
        assertThatThrownBy(() -> handler.execute(call(base + "/fail")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("HTTP 500 oops");
    }

    @Test
    void a_404_answer_fails_the_attempt() {
        assertThatThrownBy(() -> handler.execute(call(base + "/missing")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("HTTP 404");
    }

    @Test
    void a_redirect_to_an_allowed_url_is_followed() throws Exception {
        assertThat(handler.execute(call(base + "/redirect"))).isEqualTo("HTTP 200 done");
        assertThat(received).extracting(Received::path).containsExactly("/redirect", "/ok");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "http://localhost:PORT/ok",
                "http://169.254.169.254/latest/meta-data/",
                "http://2130706433:PORT/ok",
                "http://[::1]:PORT/ok",
                "http://user:pw@127.0.0.1:PORT/ok"
            })
    void a_redirect_to_a_url_not_allowed_is_refused_without_a_call(String target) {
        redirectTo = target.replace("PORT", String.valueOf(server.getAddress().getPort()));

        assertThatThrownBy(() -> handler.execute(call(base + "/redirect-away"))).isInstanceOf(SecurityException.class);
        assertThat(received).extracting(Received::path).containsExactly("/redirect-away");
    }

    @Test
    void redirects_stop_after_the_limit() {
        assertThatThrownBy(() -> handler.execute(call(base + "/loop")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("redirects");
        assertThat(received).hasSize(6);
    }

    @Test
    void loopback_needs_an_explicit_range_even_for_an_allowed_name() {
        HttpJobHandler byName = new HttpJobHandler(List.of("localhost"), 2_000, 2_000);
        String local = "http://localhost:" + server.getAddress().getPort() + "/ok";

        assertThatThrownBy(() -> byName.execute(call(local)))
                .isInstanceOf(SecurityException.class)
                .hasMessageContaining("not a public address");
        assertThat(received).isEmpty();
    }

    @Test
    void a_body_larger_than_the_limit_is_read_only_up_to_it() throws Exception {
        HttpJobHandler small = new HttpJobHandler(
                io.axscheduler.scheduler.net.AddressPolicy.of("test", List.of("127.0.0.1")), 2_000, 2_000, 10, 5);

        assertThat(small.execute(call(base + "/long"))).isEqualTo("HTTP 200 " + "a".repeat(10));
    }

    @Test
    void the_idempotency_key_and_the_job_id_go_along_as_headers() throws Exception {
        handler.execute(call(base + "/ok"));

        Received request = received.remove();
        assertThat(request.idempotencyKey()).isEqualTo("order-42-close");
        assertThat(request.jobId()).isEqualTo("job-1");
    }

    @Test
    void the_method_and_body_given_are_sent() throws Exception {
        handler.execute(call(base + "/orders/42/close", Map.of("method", "post", "body", "{\"reason\":\"timeout\"}")));

        Received request = received.remove();
        assertThat(request.method()).isEqualTo("POST");
        assertThat(request.path()).isEqualTo("/orders/42/close");
        assertThat(request.body()).isEqualTo("{\"reason\":\"timeout\"}");
    }

    @Test
    void a_method_outside_the_allowed_ones_is_refused_without_a_call() {
        assertThatThrownBy(() -> handler.execute(call(base + "/ok", Map.of("method", "TRACE"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("params.method");
        assertThat(received).isEmpty();
    }

    @Test
    void a_long_answer_is_cut_in_the_result() throws Exception {
        String result = handler.execute(call(base + "/long"));

        assertThat(result).isEqualTo("HTTP 200 " + "a".repeat(HttpJobHandler.MAX_RESULT) + "…");
    }

    @Test
    @Timeout(10)
    void an_answer_slower_than_the_read_timeout_fails_the_attempt() {
        HttpJobHandler impatient = new HttpJobHandler(List.of("127.0.0.1"), 2_000, 200);

        assertThatThrownBy(() -> impatient.execute(call(base + "/slow"))).isInstanceOf(HttpTimeoutException.class);
    }

    @Test
    void the_call_goes_to_the_address_that_was_checked_not_to_a_second_lookups_answer() throws Exception {
        try (RebindingHosts hosts = new RebindingHosts(null)) {
            HttpJobHandler pinned = new HttpJobHandler(hosts.policy("test"), 2_000, 2_000, 1_000, 5);

            String result = pinned.execute(call("http://localhost:" + hosts.port + "/ok"));

            assertThat(result).isEqualTo("HTTP 200 " + RebindingHosts.CHECKED);
            assertThat(hosts.reboundHosts).isEmpty();
            assertThat(hosts.checkedHosts).containsExactly("localhost:" + hosts.port);
            assertThat(hosts.lookups).hasValue(1);
        }
    }
}
