package io.axscheduler.query.explain;

import io.axscheduler.api.problem.InvalidRequestException;
import io.axscheduler.api.problem.NotFoundException;
import io.axscheduler.api.query.FindJob;
import io.axscheduler.api.query.JobView;
import io.axscheduler.api.schedule.FindSchedule;
import io.axscheduler.api.schedule.ScheduleView;
import io.axscheduler.api.security.Access;
import io.axscheduler.api.security.Caller;
import io.axscheduler.query.job.JobQueries;
import io.axscheduler.query.schedule.ScheduleQueries;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** "Why didn't it run?": the explain endpoints of jobs and schedules, for the namespaces the caller may see. */
@RestController
public class ExplainController {

    private final ExplainJob jobs;
    private final ExplainSchedule schedules;
    private final JobQueries jobRows;
    private final ScheduleQueries scheduleRows;
    private final Clock clock;

    public ExplainController(
            ExplainJob jobs, ExplainSchedule schedules, JobQueries jobRows, ScheduleQueries scheduleRows, Clock clock) {
        this.jobs = jobs;
        this.schedules = schedules;
        this.jobRows = jobRows;
        this.scheduleRows = scheduleRows;
        this.clock = clock;
    }

    /** 404 for a job the caller may not see, as for one that does not exist. */
    @GetMapping("/api/v1/jobs/{jobId}/explain")
    public JobExplanation job(
            @PathVariable("jobId") String jobId,
            @RequestAttribute(name = Caller.ATTRIBUTE, required = false) Caller caller) {
        JobView job = jobRows.handle(new FindJob(jobId)).orElseThrow(() -> new NotFoundException("job", jobId));
        Access.see(caller, job.namespace(), "job", jobId);
        return jobs.explain(jobId);
    }

    /** The last instant {@code at} may name: a cron's search ends within its year 9999, as every instant's 4 digits. */
    static final Instant LATEST_AT = Instant.parse("9999-12-31T23:59:59.999Z");

    /** {@code at} defaults to now. */
    @GetMapping("/api/v1/schedules/{scheduleId}/explain")
    public ScheduleExplanation schedule(
            @PathVariable("scheduleId") String scheduleId,
            @RequestParam(name = "at", required = false) String at,
            @RequestAttribute(name = Caller.ATTRIBUTE, required = false) Caller caller) {
        Instant instant;
        try {
            // in milliseconds, as every instant the API shows, the messages included
            instant =
                    at == null ? clock.instant().truncatedTo(java.time.temporal.ChronoUnit.MILLIS) : Instant.parse(at);
        } catch (DateTimeParseException e) {
            throw InvalidRequestException.of("at", "must be an ISO-8601 instant such as 2026-12-01T10:00:00Z");
        }
        if (instant.isBefore(Instant.EPOCH) || instant.isAfter(LATEST_AT))
            throw InvalidRequestException.of("at", "must be from " + Instant.EPOCH + " to " + LATEST_AT);
        ScheduleView schedule = scheduleRows
                .handle(new FindSchedule(scheduleId))
                .orElseThrow(() -> new NotFoundException("schedule", scheduleId));
        Access.see(caller, schedule.namespace(), "schedule", scheduleId);
        return schedules.explain(scheduleId, instant);
    }
}
