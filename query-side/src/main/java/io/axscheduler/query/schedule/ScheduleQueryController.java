package io.axscheduler.query.schedule;

import io.axscheduler.api.problem.NotFoundException;
import io.axscheduler.api.schedule.FindSchedule;
import io.axscheduler.api.schedule.ScheduleView;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The read endpoints of schedules: the schedules read model, and the history replayed from the event store. */
@RestController
@RequestMapping("/api/v1/schedules")
public class ScheduleQueryController {

    private final ScheduleQueries queries;
    private final ScheduleHistory history;

    public ScheduleQueryController(ScheduleQueries queries, ScheduleHistory history) {
        this.queries = queries;
        this.history = history;
    }

    @GetMapping
    public SchedulePage list(
            @RequestParam(name = "name", required = false) String name,
            @RequestParam(name = "state", required = false) String state,
            @RequestParam(name = "page", required = false) String page,
            @RequestParam(name = "size", required = false) String size) {
        return queries.list(ScheduleListRequest.parse(name, state, page, size));
    }

    @GetMapping("/{scheduleId}")
    public ScheduleView find(@PathVariable("scheduleId") String scheduleId) {
        return queries.handle(new FindSchedule(scheduleId))
                .orElseThrow(() -> new NotFoundException("schedule", scheduleId));
    }

    @GetMapping("/{scheduleId}/history")
    public ScheduleHistoryView history(
            @PathVariable("scheduleId") String scheduleId,
            @RequestParam(name = "page", required = false) String page,
            @RequestParam(name = "size", required = false) String size) {
        ScheduleListRequest paging = ScheduleListRequest.parse(
                null, null, page, size == null || size.isBlank() ? String.valueOf(ScheduleHistory.DEFAULT_SIZE) : size);
        return history.replay(scheduleId, paging.page(), paging.size());
    }
}
