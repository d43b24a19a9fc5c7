package io.axscheduler.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local HTTP receiver of alert deliveries: keeps every request it gets (path, query, headers, body) and answers 200,
 * or 500 for the next {@link #failNext} requests of a path.
 */
final class WebhookReceiver implements AutoCloseable {

    record Received(String path, String query, Map<String, List<String>> headers, String body) {
        JsonNode json() {
            try {
                return Api.JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        String header(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().get(0))
                    .findFirst()
                    .orElse(null);
        }
    }

    final List<Received> received = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicInteger> failures = new ConcurrentHashMap<>();
    private final HttpServer server;

    WebhookReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String path = exchange.getRequestURI().getPath();
            received.add(new Received(
                    path, exchange.getRequestURI().getRawQuery(), Map.copyOf(exchange.getRequestHeaders()), body));
            AtomicInteger fail = failures.get(path);
            int status = fail != null && fail.getAndDecrement() > 0 ? 500 : 200;
            byte[] answer = "{\"ok\":true}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.start();
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    void failNext(String path, int times) {
        failures.put(path, new AtomicInteger(times));
    }

    List<Received> at(String path) {
        return received.stream().filter(r -> r.path().equals(path)).toList();
    }

    /** Deliveries to {@code path} of the rule's alerts in {@code state}. */
    List<Received> of(String path, String rule, String state) {
        return at(path).stream()
                .filter(r -> r.body().contains("\"rule\":\"" + rule + "\"")
                        && r.body().contains("\"state\":\"" + state + "\""))
                .toList();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
