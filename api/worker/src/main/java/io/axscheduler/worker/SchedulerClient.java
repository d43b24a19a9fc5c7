package io.axscheduler.worker;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.worker.CallbackSignature;
import io.axscheduler.api.worker.Heartbeat;
import io.axscheduler.api.worker.HeartbeatAnswer;
import io.axscheduler.api.worker.JobCallback;
import io.axscheduler.api.worker.RegisterWorker;
import io.axscheduler.api.worker.StopRun;
import io.axscheduler.api.worker.WorkerRegistered;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** The worker's calls to the scheduler, each bounded by the connect and read timeouts. */
public class SchedulerClient {

    /** What a call answered; {@code status} 0 when the scheduler could not be reached. */
    public record Answer(int status, String body) {
        boolean ok() {
            return status / 100 == 2;
        }
    }

    private final HttpClient http;
    private final List<String> bases;
    /** The node answering last: calls go there first. */
    private final AtomicInteger preferred = new AtomicInteger();

    private final Duration readTimeout;
    private final ObjectMapper json;
    private final Clock clock;
    private final String apiKey;
    /** This process's {@link RegisterWorker#INSTANCE_HEADER}. */
    private final String instance = java.util.UUID.randomUUID().toString();

    public SchedulerClient(AxWorkerProperties properties, ObjectMapper json, Clock clock) {
        this.bases = properties.schedulerUrls();
        this.readTimeout = Duration.ofMillis(properties.readTimeoutMs());
        this.apiKey = properties.apiKey() == null ? "" : properties.apiKey().trim();
        this.json = json;
        this.clock = clock;
        this.http = HttpClient.newBuilder()
                .connectTimeout(Duration.ofMillis(properties.connectTimeoutMs()))
                .version(HttpClient.Version.HTTP_1_1)
                .build();
    }

    /** The scheduler answered a registration with an error status. */
    static final class RegistrationRefused extends IllegalStateException {
        final int status;

        RegistrationRefused(int status, String body) {
            super(status == 0 ? "no answer: " + body : "registration refused (" + status + "): " + body);
            this.status = status;
        }

        /** A refusal of the request itself (key, address, namespace, body), which asking again soon will not mend. */
        boolean ofTheRequest() {
            return status >= 400 && status < 500 && status != 408 && status != 429;
        }
    }

    public WorkerRegistered register(RegisterWorker request) {
        Answer answer = send("POST", "/api/v1/workers/register", write(request), null, null);
        if (!answer.ok()) throw new RegistrationRefused(answer.status(), answer.body());
        try {
            return json.readValue(answer.body(), WorkerRegistered.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Answer heartbeat(String workerId, int inFlight) {
        return send("POST", "/api/v1/workers/" + workerId + "/heartbeat", write(new Heartbeat(inFlight)), null, null);
    }

    /**
     * The runs a heartbeat's answer says to stop: none for an answer that names none, cannot be read, or comes from
     * an earlier scheduler (which answered {@code workerId} alone).
     */
    List<StopRun> stopsIn(Answer heartbeat) {
        if (!heartbeat.ok() || heartbeat.body() == null || heartbeat.body().isBlank()) return List.of();
        try {
            return json.readValue(heartbeat.body(), HeartbeatAnswer.class).stop();
        } catch (IOException unreadable) {
            return List.of();
        }
    }

    /** A problem answer's {@code detail}, else its body as it came. */
    String detailOf(Answer answer) {
        try {
            String detail = json.readTree(answer.body()).path("detail").asText("");
            return detail.isEmpty() ? answer.body() : detail;
        } catch (IOException | RuntimeException notJson) {
            return answer.body();
        }
    }

    public Answer deregister(String workerId) {
        return send("DELETE", "/api/v1/workers/" + workerId, null, null, null);
    }

    /** Signs with a fresh timestamp on every call, so a retried callback is not mistaken for a replay. */
    public Answer callback(JobCallback callback, String secret) {
        String body = write(callback);
        long timestamp = clock.millis();
        return send(
                "POST", "/api/v1/workers/callbacks", body, timestamp, CallbackSignature.sign(secret, timestamp, body));
    }

    /**
     * To the node that answered last, then, when it cannot be reached or answers with a server error (5xx), to each
     * other node in turn: every call here may be repeated (a registration made twice leaves one silent
     * worker id, which expires).
     */
    private Answer send(String method, String path, String body, Long timestamp, String signature) {
        int first = preferred.get();
        Answer answer = null;
        for (int i = 0; i < bases.size(); i++) {
            int index = (first + i) % bases.size();
            answer = sendTo(bases.get(index), method, path, body, timestamp, signature);
            if (!unavailable(answer)) {
                if (index != first) preferred.set(index);
                return answer;
            }
        }
        return answer;
    }

    /** The scheduler URL that answered last (the first configured before any call). */
    public String lastAnswered() {
        return bases.get(preferred.get());
    }

    /** Not reached, or a server error: another node may do better (every call here may be repeated). */
    static boolean unavailable(Answer answer) {
        return answer.status() == 0 || answer.status() / 100 == 5;
    }

    private Answer sendTo(String base, String method, String path, String body, Long timestamp, String signature) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(readTimeout)
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) request.header("Content-Type", "application/json");
        if (!apiKey.isEmpty()) request.header("Authorization", "Bearer " + apiKey);
        request.header(RegisterWorker.INSTANCE_HEADER, instance);
        if (signature != null) {
            request.header(CallbackSignature.TIMESTAMP_HEADER, String.valueOf(timestamp))
                    .header(CallbackSignature.SIGNATURE_HEADER, signature);
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.body());
        } catch (IOException | IllegalArgumentException e) {
            return new Answer(0, base + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Answer(0, "interrupted");
        }
    }

    private String write(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
