package io.axscheduler.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.Metadata;
import io.axscheduler.api.TextLimit;
import io.axscheduler.api.job.CancelJob;
import io.axscheduler.api.job.RetryJob;
import io.axscheduler.api.job.SubmitJob;
import io.axscheduler.api.job.SubmitResult;
import io.axscheduler.api.problem.FieldError;
import io.axscheduler.api.problem.InvalidRequestException;
import io.axscheduler.api.problem.KeyReusedException;
import io.axscheduler.api.problem.NotFoundException;
import io.axscheduler.api.query.FindJob;
import io.axscheduler.api.query.JobView;
import io.axscheduler.api.security.Access;
import io.axscheduler.api.security.Caller;
import io.axscheduler.api.security.Role;
import io.axscheduler.api.spi.JobTypeCatalog;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.axonframework.messaging.responsetypes.ResponseTypes;
import org.axonframework.queryhandling.QueryGateway;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.*;

/** The job commands of the HTTP API: submit (single and batch), cancel, re-run. */
@RestController
@RequestMapping("/api/v1/jobs")
class JobCommandController {

    static final int MAX_REASON_LENGTH = 1_000;

    private final JobRequestParser parser;
    private final OperatorCommands sender;
    private final QueryGateway queries;

    JobCommandController(
            JobTypeCatalog jobTypes, ObjectMapper json, Clock clock, OperatorCommands sender, QueryGateway queries) {
        this.parser = new JobRequestParser(jobTypes, json, clock);
        this.sender = sender;
        this.queries = queries;
    }

    @PostMapping
    ResponseEntity<SubmitResult> submit(
            @RequestBody JsonNode body, @RequestAttribute(name = Caller.ATTRIBUTE, required = false) Caller actor) {
        // before the errors, which list the job types of the namespace named
        JobRequestParser.mayActInNamed(actor, body, Role.OPERATOR);
        List<FieldError> errors = new ArrayList<>();
        SubmitJob command = parser.parse(body, "", errors, Caller.homeNamespace(actor));
        if (!errors.isEmpty()) throw new InvalidRequestException(errors);
        Access.act(actor, command.namespace(), Role.OPERATOR, body);
        SubmitResult result = sender.send("job", command.jobId(), command, actor, fingerprint(command, body));
        return ResponseEntity.status(result.created() ? HttpStatus.CREATED : HttpStatus.OK)
                .body(result);
    }

    /** All jobs of a batch are validated first and created in one transaction: the batch lands whole or not at all. */
    @PostMapping("/batch")
    Map<String, List<SubmitResult>> submitBatch(
            @RequestBody JsonNode body, @RequestAttribute(name = Caller.ATTRIBUTE, required = false) Caller actor) {
        List<FieldError> errors = new ArrayList<>();
        JsonNode jobs = JsonFields.batchItems(body, "jobs", errors);
        List<SubmitJob> commands = new ArrayList<>(jobs.size());
        for (int i = 0; i < jobs.size(); i++) JobRequestParser.mayActInNamed(actor, jobs.get(i), Role.OPERATOR);
        for (int i = 0; i < jobs.size(); i++) {
            commands.add(parser.parse(jobs.get(i), "jobs[" + i + "]", errors, Caller.homeNamespace(actor)));
        }
        if (!errors.isEmpty()) throw new InvalidRequestException(errors);
        for (int i = 0; i < commands.size(); i++)
            Access.act(actor, commands.get(i).namespace(), Role.OPERATOR, jobs.get(i));
        List<SubmitResult> results = sender.inOneTransaction("job batch", () -> {
            List<SubmitResult> made = new ArrayList<>(commands.size());
            for (int i = 0; i < commands.size(); i++) {
                SubmitJob command = commands.get(i);
                try {
                    made.add(
                            sender.sendOnce("job", command.jobId(), command, actor, fingerprint(command, jobs.get(i))));
                } catch (KeyReusedException e) {
                    throw e.under("jobs[" + i + "]");
                }
            }
            return made;
        });
        return Map.of("results", results);
    }

    /** A keyed job's request fingerprint, as the key's metadata; a job without a key has none. */
    private static Map<String, String> fingerprint(SubmitJob command, JsonNode body) {
        if (command.jobKey() == null) return Map.of();
        return Map.of(Metadata.REQUEST_HASH, RequestFingerprint.of(body, "jobKey"));
    }

    @PostMapping("/{jobId}/cancel")
    JobView cancel(
            @PathVariable String jobId,
            @RequestBody(required = false) JsonNode body,
            @RequestAttribute(name = Caller.ATTRIBUTE, required = false) Caller actor) {
        List<FieldError> errors = new ArrayList<>();
        String reason = reason(body, errors);
        if (!errors.isEmpty()) throw new InvalidRequestException(errors);
        Access.check(actor, view(jobId).namespace(), Role.OPERATOR, "job", jobId);
        sender.send("job", jobId, new CancelJob(jobId, reason), actor);
        return view(jobId);
    }

    @PostMapping("/{jobId}/retry")
    JobView retry(
            @PathVariable String jobId,
            @RequestBody(required = false) JsonNode body,
            @RequestAttribute(name = Caller.ATTRIBUTE, required = false) Caller actor) {
        NoFields.require(body);
        Access.check(actor, view(jobId).namespace(), Role.OPERATOR, "job", jobId);
        sender.send("job", jobId, new RetryJob(jobId), actor);
        return view(jobId);
    }

    private JobView view(String jobId) {
        return queries.query(new FindJob(jobId), ResponseTypes.optionalInstanceOf(JobView.class))
                .join()
                .orElseThrow(() -> new NotFoundException("job", jobId));
    }

    private static String reason(JsonNode body, List<FieldError> errors) {
        if (body == null || body.isNull() || body.isMissingNode()) return null;
        if (!body.isObject()) {
            errors.add(new FieldError("body", "must be a JSON object"));
            return null;
        }
        body.fieldNames().forEachRemaining(name -> {
            if (!name.equals("reason")) errors.add(new FieldError(name, "is not a known field"));
        });
        JsonNode reason = body.get("reason");
        if (reason == null || reason.isNull()) return null;
        if (!reason.isTextual() || reason.asText().length() > MAX_REASON_LENGTH) {
            errors.add(new FieldError("reason", "must be a string of at most " + MAX_REASON_LENGTH + " characters"));
            return null;
        }
        String unprintable = TextLimit.unprintable(reason.asText());
        if (unprintable != null) {
            errors.add(new FieldError("reason", unprintable));
            return null;
        }
        return reason.asText();
    }
}
