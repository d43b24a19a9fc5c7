package io.axscheduler.query.schedule;

import io.axscheduler.api.problem.NotFoundException;
import io.axscheduler.api.schedule.FindSchedule;
import io.axscheduler.api.schedule.ScheduleView;
import io.axscheduler.api.security.Access;
import io.axscheduler.api.security.Caller;
import java.util.Set;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The read endpoints of schedules: the schedules read model, and the history replayed from the event store. */
@RestController
@RequestMapping("/api/v1/schedules")
public class ScheduleQueryController {

    private final ScheduleQueries queries;
    private final ScheduleHistory history;
    private final ScheduleChanges changes;

    public ScheduleQueryController(ScheduleQueries queries, ScheduleHistory history, ScheduleChanges changes) {
        this.queries = queries;
        this.history = history;
        this.changes = changes;
    }

    /** Each create, update, pause, resume and delete: actor, time and the fields it changed. */
    @GetMapping("/{scheduleId}/changes")
    public ScheduleChanges.ChangesView changes(
            @PathVariable("scheduleId") String scheduleId,
            @RequestAttribute(name = Caller.ATTRIBUTE, required = false) Caller caller) {
        find(scheduleId, caller);
        return changes.changes(scheduleId);
    }

    @GetMapping
    public SchedulePage list(
            @RequestParam(name = "name", required = false) String name,
            @RequestParam(name = "state", required = false) String state,
            @RequestParam(name = "page", required = false) String page,
            @RequestParam(name = "size", required = false) String size,
            @RequestParam(name = "namespace", required = false) String namespace,
            @RequestAttribute(name = Caller.ATTRIBUTE, required = false) Caller caller) {
        Set<String> namespaces = Access.listable(caller, namespace);
        return queries.list(ScheduleListRequest.parse(name, state, page, size), namespaces);
    }

    @GetMapping("/{scheduleId}")
    public ScheduleView find(
            @PathVariable("scheduleId") String scheduleId,
            @RequestAttribute(name = Caller.ATTRIBUTE, required = false) Caller caller) {
        ScheduleView schedule = queries.handle(new FindSchedule(scheduleId))
                .orElseThrow(() -> new NotFoundException("schedule", scheduleId));
        Access.see(caller, schedule.namespace(), "schedule", scheduleId);
        return schedule;
    }

    @GetMapping("/{scheduleId}/history")
    public ScheduleHistoryView history(
            @PathVariable("scheduleId") String scheduleId,
            @RequestParam(name = "page", required = false) String page,
            @RequestParam(name = "size", required = false) String size,
            @RequestAttribute(name = Caller.ATTRIBUTE, required = false) Caller caller) {
        find(scheduleId, caller);
        ScheduleListRequest paging = ScheduleListRequest.parse(
                null, null, page, size == null || size.isBlank() ? String.valueOf(ScheduleHistory.DEFAULT_SIZE) : size);
        return history.replay(scheduleId, paging.page(), paging.size());
    }
}
