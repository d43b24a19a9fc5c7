package io.axscheduler.worker;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.worker.CallbackSignature;
import io.axscheduler.api.worker.PushAnswer;
import io.axscheduler.api.worker.PushState;
import io.axscheduler.api.worker.PushedJob;
import io.axscheduler.api.worker.StopRun;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * Where the scheduler pushes jobs — answers at once, 202 when taken or already known, 429 when the pool is full —
 * and the stops of runs it no longer counts (a cancel), both signed with the worker's secret. A
 * functional route rather than a {@code @RestController}: an application that component-scans {@code io.axscheduler}
 * (the scheduler itself, in tests) must not pick the endpoint up.
 */
final class PushEndpoint {

    private static final Logger log = LoggerFactory.getLogger(PushEndpoint.class);

    private PushEndpoint() {}

    /** A push signed further than this from the worker's clock is refused. */
    static final long MAX_AGE_MS = 300_000;

    static RouterFunction<ServerResponse> route(WorkerRuns runs, WorkerRuntime runtime, ObjectMapper json) {
        return RouterFunctions.route()
                .POST(PushedJob.PATH, request -> {
                    String body = request.body(String.class);
                    Long signedAt = signedAt(runtime, request, body);
                    if (signedAt == null)
                        return ServerResponse.status(HttpStatus.UNAUTHORIZED).build();
                    PushedJob job = json.readValue(body, PushedJob.class);
                    long ageMs = System.currentTimeMillis() - signedAt;
                    long answerWithinMs = answerWithin(request.headers().firstHeader(PushedJob.ANSWER_WITHIN_HEADER));
                    if (givenUp(answerWithinMs, ageMs)) {
                        log.warn(
                                "push of job {} attempt {} not run: sent {} ms ago, and the scheduler waited {} ms for"
                                        + " the answer (was this worker stopped or paused, or is its clock ahead?); it"
                                        + " has gone elsewhere",
                                job.jobId(),
                                job.attempt(),
                                ageMs,
                                answerWithinMs);
                        return ServerResponse.status(HttpStatus.GONE).build();
                    }
                    PushAnswer answer = runs.accept(job);
                    return ServerResponse.status(
                                    answer.state() == PushState.BUSY
                                            ? HttpStatus.TOO_MANY_REQUESTS
                                            : HttpStatus.ACCEPTED)
                            .body(answer);
                })
                .POST(StopRun.PATH, request -> {
                    String body = request.body(String.class);
                    if (signedAt(runtime, request, body) == null)
                        return ServerResponse.status(HttpStatus.UNAUTHORIZED).build();
                    StopRun stop = json.readValue(body, StopRun.class);
                    boolean stopped = runs.stopRun(stop);
                    if (stop.workerTakenOut()) runtime.takenOut(stop.reason());
                    return ServerResponse.ok().body(Map.of("stopped", stopped));
                })
                .build();
    }

    /**
     * When the request was signed, if it is signed with this worker's secret and fresh; null otherwise, said in the log
     * at most once a minute (a push to an earlier registration of this address, or a caller that is no scheduler).
     */
    private static Long signedAt(WorkerRuntime runtime, ServerRequest request, String body) {
        Long at = signedAt(
                runtime.secret(),
                request.headers().firstHeader(CallbackSignature.TIMESTAMP_HEADER),
                request.headers().firstHeader(CallbackSignature.SIGNATURE_HEADER),
                body);
        long now = System.currentTimeMillis();
        long last = lastRefusalLogged.get();
        if (at == null && now - last >= 60_000 && lastRefusalLogged.compareAndSet(last, now)) {
            log.warn(
                    "refused a request to {} that is not signed with this worker's secret ({}), or is stale: from a node"
                            + " pushing to an earlier registration at this address (the service restarted), or from"
                            + " something that is no scheduler; said once a minute",
                    request.path(),
                    runtime.secret() == null ? "not registered yet" : "registered as " + runtime.workerId());
        }
        return at;
    }

    private static final AtomicLong lastRefusalLogged = new AtomicLong(Long.MIN_VALUE / 2);

    /** Clocks of two hosts differ a little: a push is taken for given up only this much after its deadline. */
    static final long CLOCK_SKEW_MS = 500;

    /**
     * The scheduler stopped waiting for this push's answer {@code ageMs} after it was signed: it has handed the attempt
     * to another worker or back to the queue, and running it here would run it twice.
     */
    static boolean givenUp(long answerWithinMs, long ageMs) {
        return answerWithinMs > 0 && ageMs > answerWithinMs + CLOCK_SKEW_MS;
    }

    /** The header's wait, or 0 when it is missing or no number (an earlier scheduler): nothing is judged then. */
    static long answerWithin(String header) {
        if (header == null) return 0;
        try {
            return Math.max(0, Long.parseLong(header.trim()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * When the push was signed, if it is signed with this worker's secret (HMAC-SHA256 of timestamp and body, as
     * callbacks are) and fresh; null otherwise.
     */
    static Long signedAt(String secret, String timestamp, String signature, String body) {
        if (secret == null || timestamp == null || signature == null) return null;
        long at;
        try {
            at = Long.parseLong(timestamp.trim());
        } catch (NumberFormatException e) {
            return null;
        }
        if (Math.abs(System.currentTimeMillis() - at) > MAX_AGE_MS) return null;
        return CallbackSignature.matches(secret, at, body, signature.trim()) ? at : null;
    }
}
