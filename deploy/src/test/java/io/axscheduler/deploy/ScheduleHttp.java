package io.axscheduler.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** PUT and DELETE against a node, which {@link Api} does not send. */
final class ScheduleHttp {

    private static final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private ScheduleHttp() {}

    static Api.Response put(Api api, String path, String json) {
        return send(api, "PUT", path, json);
    }

    static Api.Response delete(Api api, String path) {
        return send(api, "DELETE", path, null);
    }

    /** Creates a schedule and returns its id, failing unless it was created. */
    static String create(Api api, String json) {
        Api.Response r = api.post("/api/v1/schedules", json);
        if (r.status() != 201) throw new AssertionError("create schedule answered " + r.status() + ": " + r.body());
        return r.text("scheduleId");
    }

    private static Api.Response send(Api api, String method, String path, String json) {
        try {
            HttpRequest request = api.authorized(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.port + path)))
                    .header("Content-Type", "application/json")
                    .timeout(Duration.ofSeconds(60))
                    .method(
                            method,
                            json == null
                                    ? HttpRequest.BodyPublishers.noBody()
                                    : HttpRequest.BodyPublishers.ofString(json))
                    .build();
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            JsonNode body = response.body().isEmpty() ? Api.JSON.nullNode() : Api.JSON.readTree(response.body());
            return new Api.Response(
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
}
