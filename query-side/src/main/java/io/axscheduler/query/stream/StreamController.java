package io.axscheduler.query.stream;

import io.axscheduler.api.problem.FieldError;
import io.axscheduler.api.problem.InvalidRequestException;
import io.axscheduler.api.security.Access;
import io.axscheduler.api.security.Caller;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * {@code GET /api/v1/stream}: server-sent events of job and schedule changes (events {@code job} and
 * {@code schedule}, data a {@link Change}), filtered by {@code namespace}, {@code jobId} and {@code scheduleId};
 * {@code events=changed} sends only a {@code changed} event at most every flush interval instead. A subscriber
 * hears only of the namespaces it may see, and a stream ends once its credentials no longer hold as they did
 * ({@link Caller#STILL_HOLDS}, checked every {@code recheck-ms}): the browser's reconnect is then authenticated anew.
 */
@RestController
public class StreamController {

    private static final int MAX_ID = 255;

    private final StreamHub hub;

    public StreamController(StreamHub hub) {
        this.hub = hub;
    }

    @GetMapping(path = "/api/v1/stream", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    public SseEmitter stream(
            @RequestParam(name = "namespace", required = false) String namespace,
            @RequestParam(name = "jobId", required = false) String jobId,
            @RequestParam(name = "scheduleId", required = false) String scheduleId,
            @RequestParam(name = "events", required = false) String events,
            @RequestAttribute(name = Caller.ATTRIBUTE, required = false) Caller caller,
            @RequestAttribute(name = Caller.STILL_HOLDS, required = false) BooleanSupplier stillHolds) {
        List<FieldError> errors = new ArrayList<>();
        String ns = bounded("namespace", namespace, errors);
        String job = bounded("jobId", jobId, errors);
        String schedule = bounded("scheduleId", scheduleId, errors);
        String kind = bounded("events", events, errors);
        if (kind != null && !kind.equals("all") && !kind.equals("changed"))
            errors.add(new FieldError("events", "must be all or changed"));
        if (!errors.isEmpty()) throw new InvalidRequestException(errors);
        Set<String> visible = Access.listable(caller, ns);
        SseEmitter emitter = hub.subscribe(
                new StreamHub.Filter(ns, job, schedule, "changed".equals(kind), visible),
                stillHolds == null ? () -> true : stillHolds);
        if (emitter == null)
            throw new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE, "too many stream subscribers");
        return emitter;
    }

    private static String bounded(String field, String value, List<FieldError> errors) {
        if (value == null || value.isBlank()) return null;
        if (value.length() > MAX_ID) errors.add(new FieldError(field, "must be at most " + MAX_ID + " characters"));
        return value.trim();
    }
}
