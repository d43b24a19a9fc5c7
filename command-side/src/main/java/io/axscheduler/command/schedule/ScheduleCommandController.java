package io.axscheduler.command.schedule;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.TimeOrderedIds;
import io.axscheduler.api.job.SubmitJob;
import io.axscheduler.api.job.SubmitResult;
import io.axscheduler.api.problem.FieldError;
import io.axscheduler.api.problem.InvalidRequestException;
import io.axscheduler.api.problem.KeyReusedException;
import io.axscheduler.api.problem.NotFoundException;
import io.axscheduler.api.schedule.*;
import io.axscheduler.api.security.Access;
import io.axscheduler.api.security.Caller;
import io.axscheduler.api.security.Role;
import io.axscheduler.api.spi.JobTypeCatalog;
import io.axscheduler.command.JobRequestParser;
import io.axscheduler.command.JsonFields;
import io.axscheduler.command.NoFields;
import io.axscheduler.command.OperatorCommands;
import io.axscheduler.command.RequestFingerprint;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.axonframework.messaging.responsetypes.ResponseTypes;
import org.axonframework.queryhandling.QueryGateway;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.*;

/** The schedule commands of the HTTP API: create, update, pause, resume, trigger now, delete; and the cron preview. */
@RestController
class ScheduleCommandController {

    static final int PREVIEW = 5;

    private final ScheduleRequestParser parser;
    private final OperatorCommands sender;
    private final QueryGateway queries;
    private final Clock clock;
    private final ScheduleKeys keys;

    ScheduleCommandController(
            JobTypeCatalog jobTypes,
            ObjectMapper json,
            Clock clock,
            OperatorCommands sender,
            QueryGateway queries,
            ScheduleRequestProperties settings,
            ScheduleKeys keys) {
        this.parser = new ScheduleRequestParser(jobTypes, json, settings.minIntervalMs());
        this.keys = keys;
        this.sender = sender;
        this.queries = queries;
        this.clock = clock;
    }

    @PostMapping("/api/v1/schedules")
    ResponseEntity<Map<String, Object>> create(
            @RequestBody JsonNode body, @RequestAttribute(name = Caller.ATTRIBUTE, required = false) Caller actor) {
        Instant now = clock.instant();
        // before the errors, which list the job types of the namespace named
        JobRequestParser.mayActInNamed(actor, body, Role.EDITOR);
        ScheduleRequest r = parser.parse(body, now, Caller.homeNamespace(actor));
        Access.act(actor, r.namespace(), Role.EDITOR, body);
        String scheduleId = TimeOrderedIds.next(now.toEpochMilli());
        if (r.scheduleKey() == null) {
            sender.send("schedule", scheduleId, r.create(scheduleId, now), actor);
            return ResponseEntity.status(HttpStatus.CREATED).body(created(scheduleId, r.trigger(), now));
        }
        // the key and the schedule land together; a key taken answers with its schedule and makes nothing
        String taken = sender.inOneTransaction("schedule " + scheduleId, () -> {
            String first =
                    keys.claim(r.scheduleKey(), r.namespace(), scheduleId, RequestFingerprint.of(body, "scheduleKey"));
            if (first == null) sender.sendOnce("schedule", scheduleId, r.create(scheduleId, now), actor);
            return first;
        });
        if (taken == null) return ResponseEntity.status(HttpStatus.CREATED).body(created(scheduleId, r.trigger(), now));
        return ResponseEntity.ok(existing(taken));
    }

    /** The answer to a create whose key had made a schedule already: that schedule, as it stands. */
    private Map<String, Object> existing(String scheduleId) {
        ScheduleView view = view(scheduleId);
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("scheduleId", scheduleId);
        answer.put("created", false);
        answer.put("state", view.state());
        answer.put("nextFireTimes", view.nextFireTime() == null ? List.of() : List.of(view.nextFireTime()));
        answer.put("description", view.description());
        return answer;
    }

    private static Map<String, Object> created(String scheduleId, Trigger trigger, Instant now) {
        Map<String, Object> answer = answer(scheduleId, trigger, now);
        answer.put("created", true);
        return answer;
    }

    /**
     * Up to 1000 schedules, all validated first and created by one command in one transaction: the batch lands whole
     * or not at all, its events appended in one batch. Each answer holds the schedule's id and first fire time.
     */
    @PostMapping("/api/v1/schedules/batch")
    ResponseEntity<Map<String, List<Map<String, Object>>>> createBatch(
            @RequestBody JsonNode body, @RequestAttribute(name = Caller.ATTRIBUTE, required = false) Caller actor) {
        List<FieldError> errors = new ArrayList<>();
        JsonNode items = JsonFields.batchItems(body, "schedules", errors);
        Instant now = clock.instant();
        List<ScheduleRequest> requests = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) JobRequestParser.mayActInNamed(actor, items.get(i), Role.EDITOR);
        for (int i = 0; i < items.size(); i++) {
            requests.add(parser.parse(items.get(i), "schedules[" + i + "]", errors, now, Caller.homeNamespace(actor)));
        }
        if (!errors.isEmpty()) throw new InvalidRequestException(errors);
        for (int i = 0; i < requests.size(); i++)
            Access.act(actor, requests.get(i).namespace(), Role.EDITOR, items.get(i));
        List<String> ids = new ArrayList<>(requests.size());
        for (int i = 0; i < requests.size(); i++) ids.add(TimeOrderedIds.next(now.toEpochMilli()));
        // each key claimed with the batch: one taken (before, or by an earlier item) answers with its schedule
        List<String> taken = sender.inOneTransaction("schedule batch", () -> {
            List<String> first = new ArrayList<>(requests.size());
            List<CreateSchedule> creates = new ArrayList<>(requests.size());
            for (int i = 0; i < requests.size(); i++) {
                ScheduleRequest r = requests.get(i);
                String owner = null;
                if (r.scheduleKey() != null) {
                    try {
                        owner = keys.claim(
                                r.scheduleKey(),
                                r.namespace(),
                                ids.get(i),
                                RequestFingerprint.of(items.get(i), "scheduleKey"));
                    } catch (KeyReusedException e) {
                        throw e.under("schedules[" + i + "]");
                    }
                }
                first.add(owner);
                if (owner == null) creates.add(r.create(ids.get(i), now));
            }
            if (!creates.isEmpty()) sender.sendOnce("schedules", "batch", new CreateSchedules(creates), actor);
            return first;
        });
        List<Map<String, Object>> results = new ArrayList<>(requests.size());
        for (int i = 0; i < requests.size(); i++) {
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("scheduleId", taken.get(i) == null ? ids.get(i) : taken.get(i));
            answer.put("created", taken.get(i) == null);
            // as a single create answers a taken key: the schedule's state (DELETED too)
            if (taken.get(i) != null) answer.put("state", view(taken.get(i)).state());
            if (taken.get(i) == null)
                answer.put(
                        "nextFireTime",
                        FireTimes.next(requests.get(i).trigger(), now, now).orElse(null));
            results.add(answer);
        }
        return ResponseEntity.status(HttpStatus.CREATED).body(Map.of("results", results));
    }

    @PutMapping("/api/v1/schedules/{scheduleId}")
    Map<String, Object> update(
            @PathVariable String scheduleId,
            @RequestBody JsonNode body,
            @RequestAttribute(name = Caller.ATTRIBUTE, required = false) Caller actor) {
        Instant now = clock.instant();
        // the schedule's namespace judges the job type (and the caller may edit there) before the body's errors
        ScheduleView current = view(scheduleId, actor, Role.EDITOR);
        String namespace = current.namespace();
        ScheduleRequest r = parser.parseIn(namespace, current.trigger(), body, now);
        if (body.hasNonNull("namespace") && !namespace.equals(r.namespace())) {
            throw InvalidRequestException.of("namespace", "cannot change; create the schedule in the other namespace");
        }
        // the body a tool creates with may come again in its updates: its key is this schedule's, or it is refused
        if (r.scheduleKey() != null && !scheduleId.equals(keys.scheduleOf(r.scheduleKey(), namespace))) {
            throw InvalidRequestException.of(
                    "scheduleKey",
                    "is not this schedule's key; a key is given when a schedule is created and names it for good");
        }
        JobTemplate job = r.job().inNamespace(namespace);
        // a schedule sent back as it is (a tool that applies its whole config on every run) changes nothing and
        // writes nothing, as a pause of a paused schedule: its history keeps only real edits
        Instant next = unchanged(current, r, job)
                ? current.nextFireTime()
                : sender.send(
                        "schedule",
                        scheduleId,
                        new UpdateSchedule(
                                scheduleId, r.name(), r.trigger(), job, r.misfirePolicy(), r.overlapPolicy(), now),
                        actor);
        Map<String, Object> answer = answer(scheduleId, r.trigger(), now);
        if (next != null && (!current.paused() || !next.isBefore(now))) {
            // the times kept by an edit of everything but the trigger: the next one (due now, on an active schedule,
            // if it is past), then those after it
            List<Instant> times = new ArrayList<>(List.of(next));
            times.addAll(FireTimes.preview(r.trigger(), next, next, PREVIEW - 1));
            answer.put("nextFireTimes", times);
        } else if (next != null) {
            // a paused schedule's kept time already past is judged by its misfire policy on resume: the times from
            // now, in the kept phase (a fixed rate keeps its anchor)
            answer.put("nextFireTimes", FireTimes.preview(r.trigger(), next, now, PREVIEW));
        }
        return answer;
    }

    /** Every field an update sets equals what the schedule has, and it is one an update may change (not deleted). */
    static boolean unchanged(ScheduleView current, ScheduleRequest r, JobTemplate job) {
        return (current.state() == ScheduleState.ACTIVE || current.state() == ScheduleState.PAUSED)
                && r.name().equals(current.name())
                && r.trigger().equals(current.trigger())
                && job.equals(current.job())
                && r.misfirePolicy() == current.misfirePolicy()
                && r.overlapPolicy() == current.overlapPolicy();
    }

    @DeleteMapping("/api/v1/schedules/{scheduleId}")
    ScheduleView delete(
            @PathVariable String scheduleId,
            @RequestAttribute(name = Caller.ATTRIBUTE, required = false) Caller actor) {
        view(scheduleId, actor, Role.EDITOR);
        sender.send("schedule", scheduleId, new DeleteSchedule(scheduleId), actor);
        return view(scheduleId);
    }

    @PostMapping("/api/v1/schedules/{scheduleId}/pause")
    ScheduleView pause(
            @PathVariable String scheduleId,
            @RequestBody(required = false) JsonNode body,
            @RequestAttribute(name = Caller.ATTRIBUTE, required = false) Caller actor) {
        NoFields.require(body);
        view(scheduleId, actor, Role.OPERATOR);
        sender.send("schedule", scheduleId, new PauseSchedule(scheduleId), actor);
        return view(scheduleId);
    }

    @PostMapping("/api/v1/schedules/{scheduleId}/resume")
    ScheduleView resume(
            @PathVariable String scheduleId,
            @RequestBody(required = false) JsonNode body,
            @RequestAttribute(name = Caller.ATTRIBUTE, required = false) Caller actor) {
        NoFields.require(body);
        view(scheduleId, actor, Role.OPERATOR);
        sender.send("schedule", scheduleId, new ResumeSchedule(scheduleId), actor);
        return view(scheduleId);
    }

    /**
     * One job at once, whatever the trigger; a paused schedule can be run by hand, a deleted one cannot. The fire and
     * its job are written in one transaction: both or neither.
     */
    @PostMapping("/api/v1/schedules/{scheduleId}/trigger")
    ResponseEntity<Map<String, Object>> trigger(
            @PathVariable String scheduleId,
            @RequestBody(required = false) JsonNode body,
            @RequestAttribute(name = Caller.ATTRIBUTE, required = false) Caller actor) {
        NoFields.require(body);
        view(scheduleId, actor, Role.OPERATOR);
        Instant now = clock.instant();
        String jobId = TimeOrderedIds.next(now.toEpochMilli());
        SubmitResult result = sender.inOneTransaction("schedule " + scheduleId + " trigger", () -> {
            JobTemplate job = sender.sendOnce(
                    "schedule", scheduleId, new FireSchedule(scheduleId, now, FireKind.MANUAL, jobId, null), actor);
            SubmitJob submit = job.toSubmitJob(jobId, scheduleId, now, FireKind.MANUAL);
            SubmitResult made = sender.sendOnce("schedule", scheduleId, submit, actor);
            // the fire names jobId: an answer with another job would record a fire whose job never exists
            if (!made.created() || !jobId.equals(made.jobId()))
                throw new IllegalStateException("the manual fire's job key " + submit.jobKey() + " was taken");
            return made;
        });
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("scheduleId", scheduleId);
        answer.put("jobId", result.jobId());
        answer.put("fireTime", now);
        answer.put("status", result.status());
        return ResponseEntity.status(HttpStatus.CREATED).body(answer);
    }

    @PostMapping("/api/v1/cron/validate")
    Map<String, Object> validateCron(@RequestBody JsonNode body) {
        List<FieldError> errors = new ArrayList<>();
        if (body == null || !body.isObject()) throw InvalidRequestException.of("body", "must be a JSON object");
        int count = PREVIEW;
        JsonNode n = body.get("count");
        if (n != null && !n.isNull()) {
            if (!n.isIntegralNumber() || n.asLong() < 1 || n.asLong() > FireTimes.MAX_PREVIEW) {
                errors.add(new FieldError("count", "must be a whole number from 1 to " + FireTimes.MAX_PREVIEW));
            } else {
                count = n.asInt();
            }
        }
        Instant now = clock.instant();
        Trigger cron = ScheduleRequestParser.cron(body, errors, now);
        if (!errors.isEmpty()) throw new InvalidRequestException(errors);
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("valid", true);
        answer.put("expression", cron.expression());
        answer.put("timezone", cron.timezone());
        answer.put("dialect", cron.dialect());
        answer.put("description", FireTimes.describe(cron));
        answer.put("nextFireTimes", FireTimes.preview(cron, now, now, count));
        answer.put("firesPerDay", FireTimes.firesPerDay(cron, now, now));
        return answer;
    }

    private static Map<String, Object> answer(String scheduleId, Trigger trigger, Instant now) {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("scheduleId", scheduleId);
        answer.put("nextFireTimes", FireTimes.preview(trigger, now, now, PREVIEW));
        answer.put("description", FireTimes.describe(trigger));
        return answer;
    }

    /** The schedule, if {@code caller} may see it (else 404) and act on it as {@code role} (else 403). */
    private ScheduleView view(String scheduleId, Caller caller, Role role) {
        ScheduleView view = view(scheduleId);
        Access.check(caller, view.namespace(), role, "schedule", scheduleId);
        return view;
    }

    private ScheduleView view(String scheduleId) {
        return queries.query(new FindSchedule(scheduleId), ResponseTypes.optionalInstanceOf(ScheduleView.class))
                .join()
                .orElseThrow(() -> new NotFoundException("schedule", scheduleId));
    }
}
