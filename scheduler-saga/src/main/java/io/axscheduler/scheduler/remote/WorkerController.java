package io.axscheduler.scheduler.remote;

import io.axscheduler.api.worker.CallbackSignature;
import io.axscheduler.api.worker.Heartbeat;
import io.axscheduler.api.worker.RegisterWorker;
import io.axscheduler.api.worker.WorkerList;
import io.axscheduler.api.worker.WorkerRegistered;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** The worker side of the HTTP contract (API.md, Workers). */
@RestController
@RequestMapping("/api/v1/workers")
public class WorkerController {

    private final WorkerRegistry registry;
    private final RemoveWorkers removeWorkers;
    private final ReceiveCallback callbacks;

    public WorkerController(WorkerRegistry registry, RemoveWorkers removeWorkers, ReceiveCallback callbacks) {
        this.registry = registry;
        this.removeWorkers = removeWorkers;
        this.callbacks = callbacks;
    }

    @PostMapping("/register")
    ResponseEntity<WorkerRegistered> register(@RequestBody RegisterWorker request) {
        return ResponseEntity.status(HttpStatus.CREATED).body(registry.register(request));
    }

    @PostMapping("/{workerId}/heartbeat")
    Map<String, Object> heartbeat(@PathVariable String workerId, @RequestBody(required = false) Heartbeat heartbeat) {
        registry.heartbeat(workerId, heartbeat == null ? 0 : heartbeat.inFlight());
        return Map.of("workerId", workerId);
    }

    @DeleteMapping("/{workerId}")
    ResponseEntity<Void> deregister(@PathVariable String workerId) {
        removeWorkers.deregister(workerId);
        return ResponseEntity.noContent().build();
    }

    @GetMapping
    WorkerList list() {
        return new WorkerList(registry.list());
    }

    /** The body is read as text: the signature covers its exact bytes, not a re-serialization of them. */
    @PostMapping("/callbacks")
    ResponseEntity<?> callback(
            @RequestBody String body,
            @RequestHeader(name = CallbackSignature.TIMESTAMP_HEADER, required = false) String timestamp,
            @RequestHeader(name = CallbackSignature.SIGNATURE_HEADER, required = false) String signature) {
        ReceiveCallback.Result result = callbacks.receive(body, timestamp, signature);
        if (result == ReceiveCallback.Result.UNAUTHORIZED) {
            ProblemDetail problem = ProblemDetail.forStatusAndDetail(
                    HttpStatus.UNAUTHORIZED,
                    "the callback is unsigned, badly signed, stale or replayed; nothing changed");
            problem.setTitle("Unauthorized");
            return ResponseEntity.status(HttpStatus.UNAUTHORIZED).body(problem);
        }
        return ResponseEntity.ok(Map.of("applied", result == ReceiveCallback.Result.APPLIED));
    }
}
