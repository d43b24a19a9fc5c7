package io.axscheduler.worker;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.worker.CallbackSignature;
import io.axscheduler.api.worker.PushAnswer;
import io.axscheduler.api.worker.PushState;
import io.axscheduler.api.worker.PushedJob;
import org.springframework.http.HttpStatus;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * Where the scheduler pushes jobs: answers at once, 202 when taken or already known, 429 when the pool is full. A
 * functional route rather than a {@code @RestController}: an application that component-scans {@code io.axscheduler}
 * (the scheduler itself, in tests) must not pick the endpoint up.
 */
final class PushEndpoint {

    private PushEndpoint() {}

    /** A push signed further than this from the worker's clock is refused. */
    static final long MAX_AGE_MS = 300_000;

    static RouterFunction<ServerResponse> route(WorkerRuns runs, WorkerRuntime runtime, ObjectMapper json) {
        return RouterFunctions.route()
                .POST(PushedJob.PATH, request -> {
                    String body = request.body(String.class);
                    if (!signed(
                            runtime.secret(),
                            request.headers().firstHeader(CallbackSignature.TIMESTAMP_HEADER),
                            request.headers().firstHeader(CallbackSignature.SIGNATURE_HEADER),
                            body)) {
                        return ServerResponse.status(HttpStatus.UNAUTHORIZED).build();
                    }
                    PushAnswer answer = runs.accept(json.readValue(body, PushedJob.class));
                    return ServerResponse.status(
                                    answer.state() == PushState.BUSY
                                            ? HttpStatus.TOO_MANY_REQUESTS
                                            : HttpStatus.ACCEPTED)
                            .body(answer);
                })
                .build();
    }

    /** Signed with this worker's secret (HMAC-SHA256 of timestamp and body, as callbacks are) and fresh. */
    static boolean signed(String secret, String timestamp, String signature, String body) {
        if (secret == null || timestamp == null || signature == null) return false;
        long at;
        try {
            at = Long.parseLong(timestamp.trim());
        } catch (NumberFormatException e) {
            return false;
        }
        if (Math.abs(System.currentTimeMillis() - at) > MAX_AGE_MS) return false;
        return CallbackSignature.matches(secret, at, body, signature.trim());
    }
}
