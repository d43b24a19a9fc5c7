package io.axscheduler.query.job;

import io.axscheduler.api.problem.InvalidRequestException;
import io.axscheduler.api.problem.NotFoundException;
import io.axscheduler.api.query.FindJob;
import io.axscheduler.api.query.JobView;
import io.axscheduler.api.security.Access;
import io.axscheduler.api.security.Caller;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Set;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The read endpoints of jobs: the job_queue read model, and the audit replayed from the event store. */
@RestController
@RequestMapping("/api/v1/jobs")
public class JobQueryController {

    private final JobQueries queries;
    private final JobListing listing;
    private final JobHistory history;

    public JobQueryController(JobQueries queries, JobListing listing, JobHistory history) {
        this.queries = queries;
        this.listing = listing;
        this.history = history;
    }

    @GetMapping("/{jobId}")
    public JobView find(
            @PathVariable("jobId") String jobId,
            @RequestAttribute(name = Caller.ATTRIBUTE, required = false) Caller caller) {
        JobView job = queries.handle(new FindJob(jobId)).orElseThrow(() -> new NotFoundException("job", jobId));
        Access.see(caller, job.namespace(), "job", jobId);
        return job;
    }

    /**
     * A page of jobs, newest first. With {@code cursor} a keyset page (as the console's: page 10,000 costs what page 1
     * does, nothing is counted) whose {@code next} is the cursor of the page after; without it a numbered page with
     * its {@code total}, whose {@code next} also continues as a keyset walk.
     */
    @GetMapping
    public Object list(
            @RequestParam(name = "status", required = false) String status,
            @RequestParam(name = "jobType", required = false) String jobType,
            @RequestParam(name = "scheduleId", required = false) String scheduleId,
            @RequestParam(name = "page", required = false) String page,
            @RequestParam(name = "size", required = false) String size,
            @RequestParam(name = "namespace", required = false) String namespace,
            @RequestParam(name = "cursor", required = false) String cursor,
            @RequestAttribute(name = Caller.ATTRIBUTE, required = false) Caller caller) {
        JobListRequest request = JobListRequest.parse(status, jobType, scheduleId, page, size, cursor);
        Set<String> namespaces = Access.listable(caller, namespace);
        if (request.cursor() == null) return queries.list(request, namespaces);
        JobListing.Page keyset = listing.page(JobListing.Query.newestFirst(
                namespaces,
                request.status(),
                request.jobType(),
                request.scheduleId(),
                request.cursor().isEmpty() ? null : request.cursor(),
                request.size()));
        return new JobCursorPage(keyset.jobs(), request.size(), keyset.next());
    }

    /** The whole stream, or with {@code asOf} the job folded from the events at or before that instant. */
    @GetMapping("/{jobId}/history")
    public Object history(
            @PathVariable("jobId") String jobId,
            @RequestParam(name = "asOf", required = false) String asOf,
            @RequestAttribute(name = Caller.ATTRIBUTE, required = false) Caller caller) {
        find(jobId, caller);
        if (asOf == null) {
            return history.replay(jobId);
        }
        return history.replayUntil(jobId, parseAsOf(asOf));
    }

    private static final Instant LATEST_AS_OF = Instant.parse("9999-12-31T23:59:59.999Z");

    static Instant parseAsOf(String asOf) {
        try {
            Instant at = Instant.parse(asOf.trim());
            // Instant reaches a billion years either way; an event store's times are epoch milliseconds
            if (at.isBefore(Instant.EPOCH) || at.isAfter(LATEST_AS_OF))
                throw InvalidRequestException.of(
                        "asOf", "must lie between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z");
            return at;
        } catch (DateTimeParseException e) {
            throw InvalidRequestException.of("asOf", "must be an ISO-8601 instant, e.g. 2026-11-30T10:00:00.000Z");
        }
    }
}
