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

/** Real HTTP against a node, as a client would call it. */
final class Api {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    final int port;

    Api(int port) {
        this.port = port;
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

    Response post(String path, String json, String actor) {
        return send(
                HttpRequest.newBuilder(uri(path))
                        .header("Content-Type", "application/json")
                        .header("X-Actor", actor),
                json);
    }

    /** Submits a job and returns its id, failing unless it was created. */
    String submit(String json) {
        Response r = post("/api/v1/jobs", json);
        if (r.status() != 201) throw new AssertionError("submit answered " + r.status() + ": " + r.body());
        return r.text("jobId");
    }

    /** Waits up to 30 s for the job to reach {@code status} and returns it as the API shows it then. */
    JsonNode awaitStatus(String jobId, String status) {
        Await.until(
                Duration.ofSeconds(30),
                () -> status.equals(get("/api/v1/jobs/" + jobId).text("status")),
                () -> get("/api/v1/jobs/" + jobId).body().toString());
        return get("/api/v1/jobs/" + jobId).body();
    }

    private Response send(HttpRequest.Builder request, String json) {
        try {
            HttpRequest built = request.timeout(Duration.ofSeconds(60))
                    .method(
                            json == null ? "GET" : "POST",
                            json == null
                                    ? HttpRequest.BodyPublishers.noBody()
                                    : HttpRequest.BodyPublishers.ofString(json))
                    .build();
            HttpResponse<String> response = http.send(built, HttpResponse.BodyHandlers.ofString());
            JsonNode body = response.body().isEmpty() ? JSON.nullNode() : JSON.readTree(response.body());
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

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }
}
