package io.axscheduler.query.explain;

import io.axscheduler.api.problem.InvalidRequestException;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** "Why didn't it run?": the explain endpoints of jobs and schedules. */
@RestController
public class ExplainController {

    private final ExplainJob jobs;
    private final ExplainSchedule schedules;
    private final Clock clock;

    public ExplainController(ExplainJob jobs, ExplainSchedule schedules, Clock clock) {
        this.jobs = jobs;
        this.schedules = schedules;
        this.clock = clock;
    }

    @GetMapping("/api/v1/jobs/{jobId}/explain")
    public JobExplanation job(@PathVariable("jobId") String jobId) {
        return jobs.explain(jobId);
    }

    /** {@code at} defaults to now. */
    @GetMapping("/api/v1/schedules/{scheduleId}/explain")
    public ScheduleExplanation schedule(
            @PathVariable("scheduleId") String scheduleId, @RequestParam(name = "at", required = false) String at) {
        Instant instant;
        try {
            instant = at == null ? clock.instant() : Instant.parse(at);
        } catch (DateTimeParseException e) {
            throw InvalidRequestException.of("at", "must be an ISO-8601 instant such as 2026-12-01T10:00:00Z");
        }
        return schedules.explain(scheduleId, instant);
    }
}
