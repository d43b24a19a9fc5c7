package io.axscheduler.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/**
 * Real HTTP against a node, as a client would call it: with the admin API key every test node is started with
 * ({@link Node}), unless made with another key ({@link #as}) or none ({@link #anonymous}).
 */
final class Api {

    /** The bootstrap admin key of every test node (ax.bootstrap.admin-key). */
    static final String ADMIN_KEY = "ax_test-only-admin-key-0123456789abcdef";

    static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    final int port;
    /** The bearer key sent, or null for none. */
    final String key;

    Api(int port) {
        this(port, ADMIN_KEY);
    }

    Api(int port, String key) {
        this.port = port;
        this.key = key;
    }

    /** The same node called with another API key. */
    Api as(String otherKey) {
        return new Api(port, otherKey);
    }

    /** The same node called without credentials. */
    Api anonymous() {
        return new Api(port, null);
    }

    /** Adds this client's key, if any, to a request. */
    HttpRequest.Builder authorized(HttpRequest.Builder request) {
        return key == null ? request : request.header("Authorization", "Bearer " + key);
    }

    record Response(int status, String contentType, JsonNode body) {
        String text(String field) {
            return body.path(field).asText();
        }
    }

    Response get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).GET(), null);
    }

    Response post(String path, String json) {
        return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json"), json);
    }

    Response put(String path, String json) {
        return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json"), "PUT", json);
    }

    Response delete(String path) {
        return send(HttpRequest.newBuilder(uri(path)), "DELETE", null);
    }

    /** A POST with extra headers, name and value alternating. */
    Response post(String path, String json, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json");
        for (int i = 0; i + 1 < headers.length; i += 2) request.header(headers[i], headers[i + 1]);
        return send(request, json);
    }

    /** Submits a job and returns its id, failing unless it was created. */
    String submit(String json) {
        Response r = post("/api/v1/jobs", json);
        if (r.status() != 201) throw new AssertionError("submit answered " + r.status() + ": " + r.body());
        return r.text("jobId");
    }

    /** The types of the job's events, in order, as its history answers them. */
    List<String> eventTypes(String jobId) {
        List<String> types = new java.util.ArrayList<>();
        get("/api/v1/jobs/" + jobId + "/history")
                .body()
                .path("events")
                .forEach(e -> types.add(e.path("type").asText()));
        return types;
    }

    /** A new API key with one grant, made by this caller (an admin); its secret. */
    String newKey(String name, String namespace, String role) {
        Response made = post(
                "/api/v1/admin/api-keys",
                "{\"name\":\"" + name + "\",\"grants\":[{\"namespace\":\"" + namespace + "\",\"role\":\"" + role
                        + "\"}]}");
        org.assertj.core.api.Assertions.assertThat(made.status())
                .as(made.body().toString())
                .isEqualTo(201);
        return made.text("key");
    }

    /** The reasons of the job's {@code JobTimedOut} events, in order, as its history answers them ("" for none). */
    List<String> timedOutReasons(String jobId) {
        List<String> reasons = new java.util.ArrayList<>();
        get("/api/v1/jobs/" + jobId + "/history").body().path("events").forEach(e -> {
            if (e.path("type").asText().equals("JobTimedOut"))
                reasons.add(e.path("payload").path("reason").asText(""));
        });
        return reasons;
    }

    /** Waits up to 30 s for the job to reach {@code status} and returns it as the API shows it then. */
    JsonNode awaitStatus(String jobId, String status) {
        Await.until(
                Duration.ofSeconds(30),
                () -> status.equals(get("/api/v1/jobs/" + jobId).text("status")),
                () -> get("/api/v1/jobs/" + jobId).body().toString());
        return get("/api/v1/jobs/" + jobId).body();
    }

    /** Waits up to {@code within} for every one of the jobs to have succeeded; the failure lists them all. */
    void awaitAllSucceeded(java.util.List<String> jobIds, Duration within) {
        Await.until(
                within,
                () -> jobIds.stream()
                        .allMatch(id ->
                                "SUCCEEDED".equals(get("/api/v1/jobs/" + id).text("status"))),
                () -> jobIds.stream()
                        .map(id -> get("/api/v1/jobs/" + id).body().toString())
                        .toList()
                        .toString());
    }

    /** Waits up to {@code within} for the node to list {@code count} registered workers. */
    void awaitWorkers(int count, Duration within) {
        Await.until(
                within,
                () -> get("/api/v1/workers").body().path("items").size() == count,
                () -> get("/api/v1/workers").body().toString());
    }

    private Response send(HttpRequest.Builder request, String json) {
        return send(request, json == null ? "GET" : "POST", json);
    }

    private Response send(HttpRequest.Builder request, String method, String json) {
        try {
            HttpRequest built = authorized(request)
                    .timeout(Duration.ofSeconds(60))
                    .method(
                            method,
                            json == null
                                    ? HttpRequest.BodyPublishers.noBody()
                                    : HttpRequest.BodyPublishers.ofString(json))
                    .build();
            HttpResponse<String> response = http.send(built, HttpResponse.BodyHandlers.ofString());
            JsonNode body = parse(response.body());
            return new Response(
                    response.statusCode(),
                    response.headers().firstValue("Content-Type").orElse(""),
                    body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** JSON as a tree; a body that is not JSON (Prometheus text, say) as one text node. */
    static JsonNode parse(String body) {
        if (body.isEmpty()) return JSON.nullNode();
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            return JSON.getNodeFactory().textNode(body);
        }
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }
}
