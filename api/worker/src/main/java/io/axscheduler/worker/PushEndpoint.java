package io.axscheduler.worker;

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

    static RouterFunction<ServerResponse> route(WorkerRuns runs) {
        return RouterFunctions.route()
                .POST(PushedJob.PATH, request -> {
                    PushAnswer answer = runs.accept(request.body(PushedJob.class));
                    return ServerResponse.status(
                                    answer.state() == PushState.BUSY
                                            ? HttpStatus.TOO_MANY_REQUESTS
                                            : HttpStatus.ACCEPTED)
                            .body(answer);
                })
                .build();
    }
}
