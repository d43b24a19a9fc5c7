package io.axscheduler.console;

import io.axscheduler.api.Metadata;
import io.axscheduler.api.TextLimit;
import io.axscheduler.api.job.CancelJob;
import io.axscheduler.api.job.RetryJob;
import io.axscheduler.api.problem.NotFoundException;
import io.axscheduler.api.problem.RefusedOnCachedState;
import io.axscheduler.api.query.FindJob;
import io.axscheduler.api.query.JobView;
import io.axscheduler.api.schedule.DeleteSchedule;
import io.axscheduler.api.schedule.FindSchedule;
import io.axscheduler.api.schedule.PauseSchedule;
import io.axscheduler.api.schedule.ResumeSchedule;
import io.axscheduler.api.schedule.ScheduleView;
import io.axscheduler.console.ConsoleAccess.Action;
import io.axscheduler.query.job.JobQueries;
import io.axscheduler.query.schedule.ScheduleQueries;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.modelling.command.AggregateNotFoundException;
import org.axonframework.modelling.command.ConcurrencyException;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * The console's actions, sent as the API's commands through Axon's command gateway with the user as actor. Each is
 * checked against {@link ConsoleAccess} in the namespace of what it acts on, whatever the page showed; the outcome
 * goes back to the page it came from as a one-time message.
 */
@Controller
class ConsoleActions {

    static final int MAX_SELECTED = 200;
    /** Sends of one action, the first included, when each loses a race to another node. */
    static final int ATTEMPTS = 3;

    private final CommandGateway commands;
    private final ConsoleAccess access;
    private final JobQueries jobs;
    private final ScheduleQueries schedules;

    ConsoleActions(CommandGateway commands, ConsoleAccess access, JobQueries jobs, ScheduleQueries schedules) {
        this.commands = commands;
        this.access = access;
        this.jobs = jobs;
        this.schedules = schedules;
    }

    @PostMapping("/console/jobs/{jobId}/retry")
    String retry(@PathVariable("jobId") String jobId, RedirectAttributes flash) {
        require(jobId, Action.RETRY_JOB);
        outcome(flash, List.of(jobId), Collections.singletonList(act(jobId, "retry", null)));
        return "redirect:/console/jobs/" + jobId;
    }

    @PostMapping("/console/jobs/{jobId}/cancel")
    String cancel(
            @PathVariable("jobId") String jobId,
            @RequestParam(name = "reason", required = false) String reason,
            RedirectAttributes flash) {
        require(jobId, Action.CANCEL_JOB);
        outcome(flash, List.of(jobId), Collections.singletonList(act(jobId, "cancel", reason)));
        return "redirect:/console/jobs/" + jobId;
    }

    /** Retry or cancel the selected jobs, each on its own: one refused does not hold back the others. */
    @PostMapping("/console/jobs/bulk")
    String bulk(
            @RequestParam(name = "action") String action,
            @RequestParam(name = "ids", required = false) List<String> ids,
            @RequestParam(name = "back", required = false) String back,
            RedirectAttributes flash) {
        List<String> selected = ids == null
                ? List.of()
                : ids.stream().distinct().limit(MAX_SELECTED).toList();
        List<String> errors = new ArrayList<>();
        for (String id : selected) errors.add(act(id, action, "canceled from the console"));
        outcome(flash, selected, errors);
        return "redirect:" + (back != null && back.startsWith("/console/jobs") ? back : "/console/jobs");
    }

    @PostMapping("/console/schedules/{scheduleId}/{action:pause|resume|delete}")
    String schedule(
            @PathVariable("scheduleId") String scheduleId,
            @PathVariable("action") String action,
            RedirectAttributes flash) {
        ScheduleView s = schedules.handle(new FindSchedule(scheduleId)).orElse(null);
        String error;
        if (s == null) {
            error = "schedule " + scheduleId + " not found";
        } else {
            access.see(s.namespace(), "schedule", scheduleId);
            access.require(action.equals("delete") ? Action.EDIT_SCHEDULE : Action.OPERATE_SCHEDULE, s.namespace());
            Object command = switch (action) {
                case "pause" -> new PauseSchedule(scheduleId);
                case "resume" -> new ResumeSchedule(scheduleId);
                default -> new DeleteSchedule(scheduleId);
            };
            error = send(command);
        }
        outcome(flash, List.of(scheduleId), Collections.singletonList(error));
        return "redirect:/console/schedules/" + scheduleId;
    }

    /** One job's action: 404 unless the user may see the job, 403 unless the user may do it (whatever the page showed). */
    private void require(String jobId, Action action) {
        JobView job = jobs.handle(new FindJob(jobId)).orElseThrow(() -> new NotFoundException("job", jobId));
        access.see(job.namespace(), "job", jobId);
        access.require(action, job.namespace());
    }

    /** Null when done, else why not: each job of a bulk action is judged alone, a refused one held against none. */
    private String act(String jobId, String action, String reason) {
        JobView job = jobs.handle(new FindJob(jobId)).orElse(null);
        if (job == null || !access.may(Action.VIEW, job.namespace())) return jobId + ": not found";
        return switch (action) {
            case "retry" -> {
                if (!access.may(Action.RETRY_JOB, job.namespace())) yield jobId + ": not allowed";
                yield prefixed(jobId, send(new RetryJob(jobId)));
            }
            case "cancel" -> {
                if (!access.may(Action.CANCEL_JOB, job.namespace())) yield jobId + ": not allowed";
                String why = reason == null || reason.isBlank() ? "canceled from the console" : reason.trim();
                String unprintable = TextLimit.unprintable(why);
                if (unprintable != null) yield jobId + ": the reason " + unprintable;
                yield prefixed(jobId, send(new CancelJob(jobId, why.length() > 500 ? why.substring(0, 500) : why)));
            }
            default -> jobId + ": unknown action " + action;
        };
    }

    /**
     * Sends the command; a race lost to another node is sent again, up to {@link #ATTEMPTS} times in all, as the API's
     * operator commands do: refused (or found unchanged) on the state this node had cached, which another node has
     * moved on ({@link RefusedOnCachedState}: the refusal dropped the entry), or accepted on it and caught by the event
     * store's unique key ({@link ConcurrencyException}).
     */
    private String send(Object command) {
        for (int attempt = 1; ; attempt++) {
            try {
                commands.sendAndWait(GenericCommandMessage.asCommandMessage(command)
                        .andMetaData(Map.of(Metadata.ACTOR, access.actor())));
                return null;
            } catch (AggregateNotFoundException e) {
                return "not found";
            } catch (RefusedOnCachedState | ConcurrencyException raceLost) {
                if (attempt == ATTEMPTS) return raceLost.getMessage();
            } catch (RuntimeException e) {
                return e.getMessage();
            }
        }
    }

    private static String prefixed(String id, String error) {
        return error == null ? null : id + ": " + error;
    }

    /**
     * The outcome, shown once by the page the action redirects to. That page's address carries a token of this outcome:
     * a flash message goes to the first request whose address matches, and the page the action was sent from may still
     * ask for its live update of the same path (the action's own events trigger it) before the redirect is followed.
     */
    private static void outcome(RedirectAttributes flash, List<String> ids, List<String> errors) {
        List<String> failed = errors.stream().filter(e -> e != null).toList();
        flash.addFlashAttribute("done", ids.size() - failed.size());
        flash.addFlashAttribute("failed", failed);
        flash.addAttribute(
                "outcome", Integer.toString(ThreadLocalRandom.current().nextInt(1 << 30), 36));
    }
}
