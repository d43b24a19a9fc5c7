package io.axscheduler.scheduler.remote;

import io.axscheduler.api.Namespaces;
import io.axscheduler.api.problem.ForbiddenException;
import io.axscheduler.api.problem.InvalidRequestException;
import io.axscheduler.api.problem.NotFoundException;
import io.axscheduler.api.security.Access;
import io.axscheduler.api.security.Caller;
import io.axscheduler.api.security.Role;
import io.axscheduler.api.worker.CallbackSignature;
import io.axscheduler.api.worker.Heartbeat;
import io.axscheduler.api.worker.HeartbeatAnswer;
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
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The worker side of the HTTP contract (API.md, Workers). */
@RestController
@RequestMapping("/api/v1/workers")
public class WorkerController {

    private final WorkerRegistry registry;
    private final RemoveWorkers removeWorkers;
    private final ReceiveCallback callbacks;
    private final WorkerDispatches dispatches;

    public WorkerController(
            WorkerRegistry registry,
            RemoveWorkers removeWorkers,
            ReceiveCallback callbacks,
            WorkerDispatches dispatches) {
        this.registry = registry;
        this.dispatches = dispatches;
        this.removeWorkers = removeWorkers;
        this.callbacks = callbacks;
    }

    @PostMapping("/register")
    ResponseEntity<WorkerRegistered> register(
            @RequestBody RegisterWorker request,
            @RequestHeader(name = RegisterWorker.INSTANCE_HEADER, required = false) String instance,
            @RequestAttribute(name = Caller.ATTRIBUTE, required = false) Caller caller) {
        if (Namespaces.isValid(request.namespace())) {
            Access.act(caller, request.namespace(), Role.WORKER);
        }
        if (instance != null && !RegisterWorker.INSTANCE.matcher(instance).matches()) {
            throw InvalidRequestException.of(
                    RegisterWorker.INSTANCE_HEADER, "must be 1-64 letters, digits or '-' (the worker process's id)");
        }
        WorkerRegistered registered = registry.register(
                request, caller == null ? null : caller.actor(), caller == null || caller.admin(), instance);
        removeWorkers.replacedBy(registered.workerId(), request, instance, caller == null ? Caller.SCHEDULER : caller);
        return ResponseEntity.status(HttpStatus.CREATED).body(registered);
    }

    /**
     * Heard, and answered with the runs the worker should stop (see {@link WorkerDispatches#toStop}). A worker taken
     * out in the last day (by an admin, or with its key) is answered 410 naming who and why, so that it stops rather
     * than registers again; one removed for its silence, or unknown, is 404: register again.
     */
    @PostMapping("/{workerId}/heartbeat")
    ResponseEntity<?> heartbeat(
            @PathVariable String workerId,
            @RequestBody(required = false) Heartbeat heartbeat,
            @RequestAttribute(name = Caller.ATTRIBUTE, required = false) Caller caller) {
        WorkerRegistry.Owner owner = registry.ownerOf(workerId).orElse(null);
        if (owner == null) return gone(workerId, takenOut(workerId, caller));
        itself(workerId, owner, caller);
        try {
            registry.heartbeat(workerId, heartbeat == null ? null : heartbeat.inFlight());
        } catch (NotFoundException removedMeanwhile) {
            // taken out (or replaced) between the two reads: said as such, or the worker would register again
            return gone(workerId, registry.removalOf(workerId).orElseThrow(() -> removedMeanwhile));
        }
        return ResponseEntity.ok(new HeartbeatAnswer(workerId, dispatches.toStop(workerId, HeartbeatAnswer.MAX_STOPS)));
    }

    /** The 410 of a heartbeat from a worker that was taken out: who, when and why, and that it stays out. */
    private static ResponseEntity<ProblemDetail> gone(String workerId, WorkerRegistry.Removal removal) {
        return problem(
                HttpStatus.GONE,
                "worker " + workerId + " was taken out at " + removal.removedAt() + ": " + removal.reason()
                        + ". A worker taken out does not register again until its service restarts");
    }

    /** 404 for a worker not registered; one taken out in the last day is said so, to whom may act on it. */
    @DeleteMapping("/{workerId}")
    ResponseEntity<?> deregister(
            @PathVariable String workerId, @RequestAttribute(name = Caller.ATTRIBUTE, required = false) Caller caller) {
        WorkerRegistry.Owner owner = registry.ownerOf(workerId).orElse(null);
        if (owner == null) {
            WorkerRegistry.Removal removal = takenOut(workerId, caller);
            return problem(
                    HttpStatus.NOT_FOUND,
                    "worker " + workerId + " is not registered: it was taken out at " + removal.removedAt() + " ("
                            + removal.reason() + ")");
        }
        itself(workerId, owner, caller);
        removeWorkers.deregister(workerId, caller, caller.actor().equals(owner.registeredBy()));
        return ResponseEntity.noContent().build();
    }

    /** The workers of the namespaces the caller may see, narrowed to {@code namespace} if given (as every list). */
    @GetMapping
    WorkerList list(
            @RequestParam(name = "namespace", required = false) String namespace,
            @RequestAttribute(name = Caller.ATTRIBUTE, required = false) Caller caller) {
        // as the job list: null is every namespace (an admin), and no caller sees none
        java.util.Set<String> listable = Access.listable(caller, namespace);
        return new WorkerList(registry.list().stream()
                .filter(w -> listable == null || listable.contains(w.namespace()))
                .toList());
    }

    /**
     * A worker heartbeats and leaves as the principal that registered it: another WORKER key of the namespace is
     * refused (403), a caller without the namespace does not see the worker (404). An admin may do either.
     */
    /**
     * The removal of a worker no longer registered, to a caller that may act for it; 404 when it was not taken out
     * (unknown, or removed as silent or deregistered) or the caller may not see it.
     */
    private WorkerRegistry.Removal takenOut(String workerId, Caller caller) {
        WorkerRegistry.Removal removal =
                registry.removalOf(workerId).orElseThrow(() -> new NotFoundException("worker", workerId));
        itself(workerId, removal.owner(), caller);
        return removal;
    }

    /** How a worker no longer registered was taken out, for a caller that may act for it; else null. */
    private String takenOutOrNull(String workerId, Caller caller) {
        if (workerId == null) return null;
        try {
            WorkerRegistry.Removal removal = takenOut(workerId, caller);
            return "it was taken out at " + removal.removedAt() + " (" + removal.reason() + ")";
        } catch (NotFoundException | ForbiddenException notToBeSaid) {
            return null;
        }
    }

    private static ResponseEntity<ProblemDetail> problem(HttpStatus status, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setTitle(status.getReasonPhrase());
        return ResponseEntity.status(status).body(problem);
    }

    private static WorkerRegistry.Owner itself(String workerId, WorkerRegistry.Owner owner, Caller caller) {
        if (caller == null
                || !(caller.can(owner.namespace(), Role.WORKER) || caller.can(owner.namespace(), Role.VIEWER))) {
            throw new NotFoundException("worker", workerId);
        }
        if (caller.admin()) return owner;
        if (!caller.can(owner.namespace(), Role.WORKER) || !caller.actor().equals(owner.registeredBy())) {
            throw new ForbiddenException("a worker may heartbeat and deregister only itself");
        }
        return owner;
    }

    /** The body is read as text: the signature covers its exact bytes, not a re-serialization of them. */
    @PostMapping("/callbacks")
    ResponseEntity<?> callback(
            @RequestBody String body,
            @RequestHeader(name = CallbackSignature.TIMESTAMP_HEADER, required = false) String timestamp,
            @RequestHeader(name = CallbackSignature.SIGNATURE_HEADER, required = false) String signature,
            @RequestAttribute(name = Caller.ATTRIBUTE, required = false) Caller caller) {
        ReceiveCallback.Result result = callbacks.receive(body, timestamp, signature, caller);
        if (result == ReceiveCallback.Result.UNAUTHORIZED) {
            ProblemDetail problem = ProblemDetail.forStatusAndDetail(
                    HttpStatus.UNAUTHORIZED,
                    "the callback is unsigned, badly signed, stale or replayed; nothing changed");
            problem.setTitle("Unauthorized");
            return ResponseEntity.status(HttpStatus.UNAUTHORIZED).body(problem);
        }
        if (result == ReceiveCallback.Result.UNKNOWN_WORKER) {
            String why = takenOutOrNull(callbacks.workerIdOf(body), caller);
            ProblemDetail problem = ProblemDetail.forStatusAndDetail(
                    HttpStatus.NOT_FOUND,
                    "the callback's workerId is not registered: "
                            + (why != null ? why : "removed after missing its heartbeats, or deregistered")
                            + "; the attempts it ran were timed out and retried by their policy then. Nothing changed");
            problem.setTitle("Not found");
            return ResponseEntity.status(HttpStatus.NOT_FOUND).body(problem);
        }
        if (result == ReceiveCallback.Result.FORBIDDEN) {
            ProblemDetail problem = ProblemDetail.forStatusAndDetail(
                    HttpStatus.FORBIDDEN,
                    "the job is not in the worker's namespace, or the callback does not come with the key that"
                            + " registered the worker; nothing changed");
            problem.setTitle("Forbidden");
            return ResponseEntity.status(HttpStatus.FORBIDDEN).body(problem);
        }
        return ResponseEntity.ok(Map.of("applied", result == ReceiveCallback.Result.APPLIED));
    }
}
