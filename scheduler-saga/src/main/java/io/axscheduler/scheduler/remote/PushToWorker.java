package io.axscheduler.scheduler.remote;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.worker.PushAnswer;
import io.axscheduler.api.worker.PushState;
import io.axscheduler.api.worker.PushedJob;
import io.axscheduler.scheduler.remote.route.Candidate;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
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

    public PushToWorker(ObjectMapper json, WorkerProperties properties) {
        this.json = json;
        this.properties = properties;
        this.http = HttpClient.newBuilder()
                .connectTimeout(Duration.ofMillis(properties.connectTimeoutMs()))
                .version(HttpClient.Version.HTTP_1_1)
                .build();
    }

    public Result push(Candidate worker, PushedJob job) {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create(worker.address() + PushedJob.PATH))
                    .timeout(Duration.ofMillis(properties.pushTimeoutMs(job.timeoutMs())))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(json.writeValueAsString(job)))
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
