package io.axscheduler.scheduler.remote;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.worker.CallbackSignature;
import io.axscheduler.api.worker.PushAnswer;
import io.axscheduler.api.worker.PushState;
import io.axscheduler.api.worker.PushedJob;
import io.axscheduler.api.worker.StopRun;
import io.axscheduler.scheduler.net.PinnedHttp;
import io.axscheduler.scheduler.remote.route.Candidate;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLHandshakeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * One push: a bounded HTTP call whose whole wait stays under half the job's timeout. The worker answers at once
 * (the run goes to its pool), so a slow answer means a sick worker, not a long job. The connection goes to an address
 * the worker allow-list checked as it connects ({@link PinnedHttp}), not to whatever a later lookup answers.
 */
@Component
public class PushToWorker {

    public enum Result {
        ACCEPTED,
        BUSY,
        FAILED
    }

    private static final Logger log = LoggerFactory.getLogger(PushToWorker.class);
    /** An answer is a small JSON object; anything longer is not one. */
    static final int MAX_ANSWER_BYTES = 64 * 1024;

    static final int MAX_CONNECTIONS = 200;

    /** A push whose answer was lost is asked again only with at least this much of its answer's time left. */
    static final long MIN_ASK_AGAIN_MS = 100;

    private final PinnedHttp http;
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
        this.http = new PinnedHttp(addresses.policy(), properties.connectTimeoutMs(), MAX_CONNECTIONS);
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
        return push(worker, job, why -> {});
    }

    /** {@link #push(Candidate, PushedJob)}, telling {@code whyFailed} what a {@code FAILED} push met. */
    public Result push(Candidate worker, PushedJob job, java.util.function.Consumer<String> whyFailed) {
        Optional<String> refused = addresses.refusal(worker.address());
        if (refused.isPresent()) {
            log.warn("not pushing job {} to worker {}: its address {}", job.jobId(), worker.workerId(), refused.get());
            whyFailed.accept("not pushed: its address " + refused.get());
            return Result.FAILED;
        }
        String secret = secret(worker.workerId());
        if (secret == null) {
            whyFailed.accept("not pushed: the worker's secret is gone (the worker was removed)");
            return Result.FAILED;
        }
        long answerWithinMs = properties.pushTimeoutMs(job.timeoutMs());
        long giveUpAt = clock.millis() + answerWithinMs;
        String body;
        try {
            body = json.writeValueAsString(job);
        } catch (IOException e) {
            return failed(worker, job, e, whyFailed);
        }
        try {
            return ask(worker, job, secret, body, answerWithinMs, whyFailed);
        } catch (HttpTimeoutException
                | InterruptedIOException
                | ConnectException
                | NoRouteToHostException
                | UnknownHostException
                | SSLHandshakeException notTaken) {
            // no answer in time (a worker that slow is given up: one that reads the push later refuses it as stale),
            // or no connection: the next worker may have it
            return failed(worker, job, notTaken, whyFailed);
        } catch (IllegalArgumentException | SecurityException bad) {
            return failed(worker, job, bad, whyFailed);
        } catch (IOException lost) {
            // the push went out and the connection broke before its answer: the worker may have taken it. The same
            // push again is answered with what the worker knows of it (it never runs one push twice), where the next
            // worker would run the job a second time. Within the answer's time, as the first ask.
            long leftMs = giveUpAt - clock.millis();
            if (leftMs < MIN_ASK_AGAIN_MS) return failed(worker, job, lost, whyFailed);
            log.info(
                    "push of job {} attempt {} to worker {} got no answer ({}); asking it again",
                    job.jobId(),
                    job.attempt(),
                    worker.workerId(),
                    lost.toString());
            try {
                return ask(worker, job, secret, body, leftMs, whyFailed);
            } catch (IOException | IllegalArgumentException | SecurityException again) {
                return failed(worker, job, again, whyFailed);
            }
        }
    }

    /**
     * Tells a worker to stop a run: one signed call bounded by the connect and read timeouts. False when the worker
     * did not take it (unreachable, or a library from before stops, which answers 404): its next heartbeat's answer
     * names the run as well.
     */
    public boolean stop(WorkerDispatches.Pushed run, String reason, boolean workerTakenOut) {
        if (addresses.refusal(run.address()).isPresent()) return false;
        String secret = run.secret();
        try {
            String body = json.writeValueAsString(
                    new StopRun(run.jobId(), run.attempt(), run.shardIndex(), reason, workerTakenOut));
            long withinMs = properties.connectTimeoutMs() + properties.readTimeoutMs();
            int status = signedPost(run.address() + StopRun.PATH, secret, body, Map.of(), withinMs)
                    .status();
            return status / 100 == 2;
        } catch (IOException | IllegalArgumentException | SecurityException notTold) {
            log.info(
                    "could not tell worker {} to stop job {} attempt {} ({}); its next heartbeat will",
                    run.workerId(),
                    run.jobId(),
                    run.attempt(),
                    notTold.toString());
            return false;
        }
    }

    /**
     * A JSON POST to a worker signed as callbacks are (timestamp and HMAC of the body with the worker's secret), so a
     * worker takes pushes and stops only from the scheduler it registered with.
     */
    private PinnedHttp.Answer signedPost(
            String url, String secret, String body, Map<String, String> moreHeaders, long timeoutMs)
            throws IOException {
        long timestamp = clock.millis();
        Map<String, String> headers = new HashMap<>(moreHeaders);
        headers.put("Content-Type", "application/json");
        headers.put(CallbackSignature.TIMESTAMP_HEADER, String.valueOf(timestamp));
        headers.put(CallbackSignature.SIGNATURE_HEADER, CallbackSignature.sign(secret, timestamp, body));
        return http.send("POST", URI.create(url), headers, body, MAX_ANSWER_BYTES, timeoutMs);
    }

    /** One signed request of the push and its answer; an answer that is not one of a worker's is {@code FAILED}. */
    private Result ask(
            Candidate worker,
            PushedJob job,
            String secret,
            String body,
            long answerWithinMs,
            java.util.function.Consumer<String> whyFailed)
            throws IOException {
        PinnedHttp.Answer response = signedPost(
                worker.address() + PushedJob.PATH,
                secret,
                body,
                Map.of(PushedJob.ANSWER_WITHIN_HEADER, String.valueOf(answerWithinMs)),
                answerWithinMs);
        if (response.status() == 429) return Result.BUSY;
        if (response.status() == 410) {
            // the worker read the push as given up while this node still waited: its clock runs ahead
            log.warn(
                    "worker {} refused the push of job {} attempt {} as given up ({} ms), while this node still"
                            + " waited for its answer: the worker's clock is ahead of this node's; sync the clocks",
                    worker.workerId(),
                    job.jobId(),
                    job.attempt(),
                    answerWithinMs);
            whyFailed.accept("the worker refused the push as given up: its clock is ahead of the node's");
            return Result.FAILED;
        }
        if (response.status() / 100 != 2) {
            log.warn(
                    "worker {} answered the push of job {} attempt {} with {}; the push goes to the job's next worker,"
                            + " or the job back to the queue (failures-before-cool-down in a row cool the worker down)",
                    worker.workerId(),
                    job.jobId(),
                    job.attempt(),
                    response.status());
            whyFailed.accept("the worker answered the push with HTTP " + response.status()
                    + (response.status() == 401 || response.status() == 403
                            ? " (a security filter in the worker's service, before the library?)"
                            : ""));
            return Result.FAILED;
        }
        PushAnswer answer;
        try {
            answer = json.readValue(response.body(), PushAnswer.class);
        } catch (JsonProcessingException notAnAnswer) {
            return failed(worker, job, notAnAnswer, whyFailed);
        }
        return answer.state() == PushState.BUSY ? Result.BUSY : Result.ACCEPTED;
    }

    private static Result failed(
            Candidate worker, PushedJob job, Exception e, java.util.function.Consumer<String> whyFailed) {
        whyFailed.accept("the push failed: " + e);
        log.warn(
                "push of job {} attempt {} to worker {} failed: {}; the push goes to the job's next worker, or the job"
                        + " back to the queue (failures-before-cool-down in a row cool the worker down)",
                job.jobId(),
                job.attempt(),
                worker.workerId(),
                e.toString());
        return Result.FAILED;
    }
}
