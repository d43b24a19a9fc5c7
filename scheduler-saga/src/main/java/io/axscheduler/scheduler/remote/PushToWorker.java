package io.axscheduler.scheduler.remote;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.worker.CallbackSignature;
import io.axscheduler.api.worker.PushAnswer;
import io.axscheduler.api.worker.PushState;
import io.axscheduler.api.worker.PushedJob;
import io.axscheduler.scheduler.remote.route.Candidate;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * One push: a bounded HTTP call whose whole wait stays under half the job's timeout. The worker answers at once
 * (the run goes to its pool), so a slow answer means a sick worker, not a long job.
 */
@Component
public class PushToWorker {

    public enum Result {
        ACCEPTED,
        BUSY,
        FAILED
    }

    private static final Logger log = LoggerFactory.getLogger(PushToWorker.class);

    private final HttpClient http;
    private final ObjectMapper json;
    private final WorkerProperties properties;
    private final WorkerAddresses addresses;
    private final WorkerRegistry registry;
    private final Clock clock;
    /** Worker secrets never change for a worker id: read once per worker, bounded. */
    private final Map<String, String> secrets = new ConcurrentHashMap<>();

    public PushToWorker(
            ObjectMapper json,
            WorkerProperties properties,
            WorkerAddresses addresses,
            WorkerRegistry registry,
            Clock clock) {
        this.json = json;
        this.addresses = addresses;
        this.registry = registry;
        this.clock = clock;
        this.properties = properties;
        this.http = HttpClient.newBuilder()
                .connectTimeout(Duration.ofMillis(properties.connectTimeoutMs()))
                .version(HttpClient.Version.HTTP_1_1)
                .build();
    }

    private String secret(String workerId) {
        String known = secrets.get(workerId);
        if (known != null) return known;
        if (secrets.size() >= 10_000) secrets.clear();
        return registry.secretOf(workerId)
                .map(s -> {
                    secrets.put(workerId, s);
                    return s;
                })
                .orElse(null);
    }

    public Result push(Candidate worker, PushedJob job) {
        Optional<String> refused = addresses.refusal(worker.address());
        if (refused.isPresent()) {
            log.warn("not pushing job {} to worker {}: its address {}", job.jobId(), worker.workerId(), refused.get());
            return Result.FAILED;
        }
        String secret = secret(worker.workerId());
        if (secret == null) return Result.FAILED;
        try {
            String body = json.writeValueAsString(job);
            long timestamp = clock.millis();
            // signed as callbacks are, so a worker takes jobs only from the scheduler it registered with
            HttpRequest request = HttpRequest.newBuilder(URI.create(worker.address() + PushedJob.PATH))
                    .timeout(Duration.ofMillis(properties.pushTimeoutMs(job.timeoutMs())))
                    .header("Content-Type", "application/json")
                    .header(CallbackSignature.TIMESTAMP_HEADER, String.valueOf(timestamp))
                    .header(CallbackSignature.SIGNATURE_HEADER, CallbackSignature.sign(secret, timestamp, body))
                    .POST(HttpRequest.BodyPublishers.ofString(body))
                    .build();
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 429) return Result.BUSY;
            if (response.statusCode() / 100 != 2) {
                log.warn(
                        "worker {} answered the push of job {} attempt {} with {}",
                        worker.workerId(),
                        job.jobId(),
                        job.attempt(),
                        response.statusCode());
                return Result.FAILED;
            }
            PushAnswer answer = json.readValue(response.body(), PushAnswer.class);
            return answer.state() == PushState.BUSY ? Result.BUSY : Result.ACCEPTED;
        } catch (IOException | IllegalArgumentException e) {
            log.warn(
                    "push of job {} attempt {} to worker {} failed: {}",
                    job.jobId(),
                    job.attempt(),
                    worker.workerId(),
                    e.toString());
            return Result.FAILED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Result.FAILED;
        }
    }
}
