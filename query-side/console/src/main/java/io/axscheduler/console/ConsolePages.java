package io.axscheduler.console;

import io.axscheduler.api.Namespaces;
import io.axscheduler.api.job.JobStatus;
import io.axscheduler.api.problem.FieldError;
import io.axscheduler.api.problem.ForbiddenException;
import io.axscheduler.api.problem.InvalidRequestException;
import io.axscheduler.api.problem.NotFoundException;
import io.axscheduler.api.query.FindJob;
import io.axscheduler.api.query.JobView;
import io.axscheduler.api.schedule.FindSchedule;
import io.axscheduler.api.schedule.FireTimes;
import io.axscheduler.api.schedule.ScheduleView;
import io.axscheduler.api.security.Caller;
import io.axscheduler.query.alert.AlertQueries;
import io.axscheduler.query.history.EventStreams;
import io.axscheduler.query.history.HistoryEvent;
import io.axscheduler.query.job.JobHistory;
import io.axscheduler.query.job.JobListing;
import io.axscheduler.query.job.JobQueries;
import io.axscheduler.query.job.JobStateAsOf;
import io.axscheduler.query.schedule.ScheduleListRequest;
import io.axscheduler.query.schedule.ScheduleQueries;
import io.axscheduler.query.stats.Overview;
import io.axscheduler.query.stats.StatsQueries;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.springframework.context.MessageSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;

/** The console's pages, rendered on the server from the read models; every list is a bounded page. */
@Controller
class ConsolePages {

    static final int SCHEDULE_EVENTS_PAGE = 50;
    /** Rows of the job list on one page, at most. */
    static final int MAX_JOBS_SHOWN = 200;

    static final int SCHEDULE_JOBS = 20;

    private final StatsQueries stats;
    private final JobListing jobs;
    private final JobQueries jobQueries;
    private final JobHistory jobHistory;
    private final ScheduleQueries schedules;
    private final EventStreams streams;
    private final EventStore eventStore;
    private final NamedParameterJdbcTemplate jdbc;
    private final AuditFeed audit;
    private final long firesPerDayWarning;
    private final AlertQueries alerts;
    private final MessageSource messages;
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ConsolePages.class);

    /** How many alerts the alerts page lists, newest first. */
    static final int ALERTS_SHOWN = 200;

    /** How many firing alerts the overview lists, newest first (the API lists them all). */
    static final int FIRING_SHOWN = 10;

    private final com.fasterxml.jackson.databind.ObjectMapper json;
    private final Why why;
    private final ConsoleAccess access;
    private final Clock clock;

    ConsolePages(
            StatsQueries stats,
            JobListing jobs,
            JobQueries jobQueries,
            JobHistory jobHistory,
            ScheduleQueries schedules,
            EventStreams streams,
            EventStore eventStore,
            NamedParameterJdbcTemplate jdbc,
            AuditFeed audit,
            com.fasterxml.jackson.databind.ObjectMapper json,
            Why why,
            ConsoleAccess access,
            Clock clock,
            ConsoleProperties settings,
            AlertQueries alerts,
            MessageSource messages) {
        this.alerts = alerts;
        this.messages = messages;
        this.json = json;
        this.why = why;
        this.access = access;
        this.clock = clock;
        this.stats = stats;
        this.jobs = jobs;
        this.jobQueries = jobQueries;
        this.jobHistory = jobHistory;
        this.schedules = schedules;
        this.streams = streams;
        this.eventStore = eventStore;
        this.jdbc = jdbc;
        this.audit = audit;
        this.firesPerDayWarning = settings.firesPerDayWarning();
    }

    @GetMapping("/console")
    String overview(@RequestParam(name = "namespace", required = false) String namespace, Model model) {
        overviewModel(namespace, model);
        return "console/overview";
    }

    /** The overview's body alone: what the page swaps in when the stream says something changed. */
    @GetMapping("/console/fragments/overview")
    String overviewFragment(@RequestParam(name = "namespace", required = false) String namespace, Model model) {
        overviewModel(namespace, model);
        return "console/overview :: overview-body";
    }

    private void overviewModel(String namespace, Model model) {
        String ns = bounded("namespace", namespace);
        Set<String> visible = access.listable(ns);
        Overview o = stats.overview(ns, visible);
        model.addAttribute("o", o);
        // counted per namespace, a figure above the exact bound is a floor, not a count under way
        model.addAttribute("someNamespaces", visible != null);
        model.addAttribute("namespace", o.namespace());
        model.addAttribute("page", "overview");
        // the alerts of the rules the user may see, as GET /api/v1/alerts?state=FIRING answers them
        Caller caller = access.current();
        Object firing = List.of();
        try {
            if (caller != null)
                firing = alerts.list("FIRING", null, FIRING_SHOWN + 1, caller).get("items");
        } catch (RuntimeException e) {
            // the overview without its alerts panel rather than no overview (an unreadable rule, say)
            log.warn("the overview's firing alerts could not be read: {}", e.toString());
        }
        model.addAttribute("firing", firing);
        model.addAttribute("firingShown", FIRING_SHOWN);
    }

    @GetMapping("/console/jobs")
    String jobs(
            @RequestParam(name = "namespace", required = false) String namespace,
            @RequestParam(name = "status", required = false) String status,
            @RequestParam(name = "type", required = false) String type,
            @RequestParam(name = "schedule", required = false) String schedule,
            @RequestParam(name = "from", required = false) String from,
            @RequestParam(name = "to", required = false) String to,
            @RequestParam(name = "q", required = false) String q,
            @RequestParam(name = "sort", required = false) String sort,
            @RequestParam(name = "cursor", required = false) String cursor,
            @RequestParam(name = "size", required = false) String size,
            jakarta.servlet.http.HttpServletRequest request,
            Model model) {
        List<FieldError> errors = new ArrayList<>();
        JobStatus parsedStatus = null;
        if (blank(status) != null) {
            try {
                parsedStatus = JobStatus.valueOf(status.trim());
            } catch (IllegalArgumentException e) {
                errors.add(new FieldError("status", "must be one of " + List.of(JobStatus.values())));
            }
        }
        int parsedSize = JobListing.DEFAULT_SIZE;
        if (blank(size) != null) {
            try {
                parsedSize = Integer.parseInt(size.trim());
            } catch (NumberFormatException e) {
                parsedSize = -1;
            }
            if (parsedSize < 1 || parsedSize > MAX_JOBS_SHOWN) {
                errors.add(new FieldError("size", "must be a whole number from 1 to " + MAX_JOBS_SHOWN));
            }
        }
        Instant fromAt = instant("from", from, errors);
        Instant toAt = instant("to", to, errors);
        if (!errors.isEmpty()) throw new InvalidRequestException(errors);
        String ns = bounded("namespace", namespace);
        JobListing.Query query = new JobListing.Query(
                ns,
                access.listable(ns),
                parsedStatus,
                bounded("type", type),
                bounded("schedule", schedule),
                fromAt,
                toAt,
                bounded("q", q),
                "oldest".equals(sort),
                bounded("cursor", cursor),
                parsedSize);
        JobListing.Page page = jobs.page(query);
        model.addAttribute("jobs", page.jobs());
        model.addAttribute("next", page.next());
        model.addAttribute("query", query);
        model.addAttribute("statuses", JobStatus.values());
        model.addAttribute("page", "jobs");
        model.addAttribute("defaultNamespace", Namespaces.DEFAULT);
        // where a bulk action comes back to: this very page
        model.addAttribute(
                "back", "/console/jobs" + (request.getQueryString() == null ? "" : "?" + request.getQueryString()));
        return "console/jobs";
    }

    @GetMapping("/console/jobs/{jobId}")
    String job(
            @PathVariable("jobId") String jobId,
            @RequestParam(name = "asOf", required = false) String asOf,
            Locale locale,
            Model model) {
        JobView job = jobQueries.handle(new FindJob(jobId)).orElseThrow(() -> new NotFoundException("job", jobId));
        access.see(job.namespace(), "job", jobId);
        List<HistoryEvent> events = jobHistory.replay(jobId).events();
        model.addAttribute("job", job);
        // the moves the job's transitions allow from here (an operator's retry re-runs an ended, unsuccessful job)
        model.addAttribute(
                "retryable",
                job.status() == JobStatus.FAILED
                        || job.status() == JobStatus.TIMED_OUT
                        || job.status() == JobStatus.CANCELED);
        model.addAttribute("namespace", job.namespace());
        model.addAttribute(
                "timeline",
                Timeline.of(events, (key, english, args) -> messages.getMessage(key, args, english, locale)));
        model.addAttribute("why", why.job(jobId, locale));
        if (blank(asOf) != null) {
            // a bad instant, or one before the job existed, is said beside the field: the page still shows the job
            try {
                JobStateAsOf state = jobHistory.replayUntil(jobId, instant("asOf", asOf, null));
                model.addAttribute("asOf", state);
            } catch (InvalidRequestException | NotFoundException e) {
                model.addAttribute("asOfError", e.getMessage());
            }
        }
        model.addAttribute("page", "jobs");
        return "console/job";
    }

    @GetMapping("/console/schedules")
    String schedules(
            @RequestParam(name = "name", required = false) String name,
            @RequestParam(name = "state", required = false) String state,
            @RequestParam(name = "namespace", required = false) String namespace,
            @RequestParam(name = "p", required = false) String pageNumber,
            Model model) {
        String ns = bounded("namespace", namespace);
        var list = schedules.list(ScheduleListRequest.parse(name, state, pageNumber, null), access.listable(ns));
        model.addAttribute("list", list);
        model.addAttribute("namespace", ns);
        model.addAttribute("name", name);
        model.addAttribute("state", state);
        model.addAttribute("page", "schedules");
        return "console/schedules";
    }

    @GetMapping("/console/schedules/new")
    String newSchedule(Model model) {
        // the form is for one who may save it: an EDITOR somewhere (the API checks the namespace it is saved in)
        if (!access.mayIn(ConsoleAccess.Action.EDIT_SCHEDULE.name(), null))
            throw new ForbiddenException("not allowed: making a schedule needs a grant of "
                    + io.axscheduler.api.security.Role.EDITOR.grantsCovering() + " in some namespace");
        return scheduleForm(null, model);
    }

    @GetMapping("/console/schedules/{scheduleId}/edit")
    String editSchedule(@PathVariable("scheduleId") String scheduleId, Model model) {
        ScheduleView schedule = schedule(scheduleId);
        access.require(ConsoleAccess.Action.EDIT_SCHEDULE, schedule.namespace());
        return scheduleForm(schedule, model);
    }

    /**
     * The namespace a new schedule's form starts with: {@code default} for one who may save there (an admin, an
     * editor of it), else the first namespace, by name, in which the user is an editor (a team's user: its own).
     */
    static String formNamespace(Caller caller) {
        if (caller == null || caller.can(Namespaces.DEFAULT, io.axscheduler.api.security.Role.EDITOR))
            return Namespaces.DEFAULT;
        Set<String> editable = caller.namespaces(io.axscheduler.api.security.Role.EDITOR);
        return editable == null || editable.isEmpty()
                ? Namespaces.DEFAULT
                : editable.stream().sorted().findFirst().orElseThrow();
    }

    /** The form posts to the schedule API itself, which validates it as it validates any client's request. */
    private String scheduleForm(ScheduleView schedule, Model model) {
        model.addAttribute("schedule", schedule);
        try {
            model.addAttribute(
                    "paramsJson",
                    schedule == null
                            ? "{}"
                            : json.writeValueAsString(schedule.job().params()));
            // every field of the job the form does not show as its own input is carried as it is, so a save
            // changes only what the user changed
            model.addAttribute(
                    "backoffJson",
                    schedule == null
                            ? ""
                            : json.writeValueAsString(
                                    withoutNulls(schedule.job().retryPolicy().backoff())));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        io.axscheduler.api.schedule.Trigger trigger = schedule == null ? null : schedule.trigger();
        model.addAttribute("triggerKinds", List.of("cron", "fixedRate", "fixedDelay", "once"));
        model.addAttribute(
                "triggerKind", trigger == null ? "cron" : trigger.type().wireName());
        model.addAttribute(
                "startAtLocal", trigger == null || trigger.startAt() == null ? "" : localUtc(trigger.startAt()));
        model.addAttribute("onceAtLocal", trigger == null || trigger.at() == null ? "" : localUtc(trigger.at()));
        model.addAttribute("defaultNamespace", formNamespace(access.current()));
        model.addAttribute("misfirePolicies", io.axscheduler.api.schedule.MisfirePolicy.values());
        model.addAttribute("overlapPolicies", io.axscheduler.api.schedule.OverlapPolicy.values());
        model.addAttribute("warnAbove", firesPerDayWarning);
        model.addAttribute("routeStrategies", io.axscheduler.api.job.RouteStrategy.values());
        model.addAttribute("defaultMaxRetries", io.axscheduler.api.job.RetryPolicy.DEFAULT_MAX_RETRIES);
        model.addAttribute("page", "schedules");
        return "console/schedule-form";
    }

    @GetMapping("/console/schedules/{scheduleId}")
    String schedulePage(
            @PathVariable("scheduleId") String scheduleId,
            @RequestParam(name = "before", required = false) String before,
            @RequestParam(name = "at", required = false) String at,
            Locale locale,
            Model model) {
        ScheduleView s = schedule(scheduleId);
        Instant whyAt = clock.instant();
        if (blank(at) != null) {
            // a bad instant is said beside the field, and the page answers for now
            try {
                whyAt = instant("at", at, null);
            } catch (InvalidRequestException e) {
                model.addAttribute("atError", e.getMessage());
            }
        }
        Long newest = jdbc.queryForObject(
                "SELECT MAX(sequenceNumber) FROM DomainEventEntry WHERE aggregateIdentifier = :id",
                Map.of("id", scheduleId),
                Long.class);
        long end = newest == null ? -1 : newest;
        if (blank(before) != null) {
            try {
                end = Math.min(end, Long.parseLong(before.trim()) - 1);
            } catch (NumberFormatException e) {
                throw InvalidRequestException.of("before", "must be a sequence number");
            }
        }
        // the page's oldest event: the retention leaves gaps in a schedule's sequence numbers (its old fire records)
        Long oldest = end < 0 ? null : streams.oldestOfNewest(scheduleId, end, SCHEDULE_EVENTS_PAGE);
        long start = oldest == null ? 0 : oldest;
        long last = end;
        // the newest page of the schedule's stream only: a schedule firing every minute has 1,440 events a day
        List<DomainEventMessage<?>> tail = last < 0
                ? List.of()
                : eventStore
                        .readEvents(scheduleId, start)
                        .asStream()
                        .takeWhile(e -> e.getSequenceNumber() <= last)
                        .<DomainEventMessage<?>>map(e -> e)
                        .toList();
        List<HistoryEvent> events = new ArrayList<>(streams.render(tail));
        java.util.Collections.reverse(events);
        List<HistoryEvent> fires = events.stream()
                .filter(e -> e.type().equals("ScheduleFired") || e.type().equals("ScheduleFireSkipped"))
                .toList();
        List<HistoryEvent> changes = events.stream()
                .filter(e -> !e.type().equals("ScheduleFired") && !e.type().equals("ScheduleFireSkipped"))
                .toList();
        model.addAttribute("s", s);
        model.addAttribute("namespace", s.namespace());
        model.addAttribute("why", why.schedule(scheduleId, whyAt, locale, s.timezone()));
        model.addAttribute("whyAt", localUtc(whyAt));
        model.addAttribute("before", blank(before));
        model.addAttribute("fires", fires);
        model.addAttribute("changes", changes);
        model.addAttribute("olderBefore", start > 0 ? start : null);
        model.addAttribute(
                "jobs",
                // the schedule's jobs are in its namespace, which the user may see: its own index, unfiltered
                jobs.page(new JobListing.Query(
                                null, null, null, null, scheduleId, null, null, null, false, null, SCHEDULE_JOBS))
                        .jobs());
        model.addAttribute("description", FireTimes.describe(s.trigger()));
        model.addAttribute("page", "schedules");
        return "console/schedule";
    }

    /**
     * Alerts firing and resolved, newest first ({@value #ALERTS_SHOWN} at most; the API pages further), narrowed by
     * state and rule, and the rules the user may see.
     */
    @GetMapping("/console/alerts")
    String alertList(
            @RequestParam(name = "state", required = false) String state,
            @RequestParam(name = "rule", required = false) String rule,
            Model model) {
        String st = blank(state);
        String ru = bounded("rule", rule);
        Caller caller = access.current();
        Object listed = alerts.list(st, ru, ALERTS_SHOWN + 1, caller).get("items");
        model.addAttribute("alerts", listed);
        model.addAttribute("alertLinks", alertLinks(listed));
        model.addAttribute("alertsShown", ALERTS_SHOWN);
        model.addAttribute("rules", alerts.rules(caller));
        model.addAttribute("state", st);
        model.addAttribute("rule", ru);
        model.addAttribute("page", "alerts");
        return "console/alerts";
    }

    /** A job or schedule an alert names, to link to from it. */
    public record AlertLink(String kind, String id) {}

    /**
     * For each alert (by id), the schedule and the jobs its details name (a failed jobs' rule keeps up to ten, the
     * latest first): what an operator opens next.
     */
    @SuppressWarnings("unchecked")
    static Map<String, List<AlertLink>> alertLinks(Object listed) {
        Map<String, List<AlertLink>> links = new java.util.HashMap<>();
        for (Map<String, Object> alert : (List<Map<String, Object>>) listed) {
            List<AlertLink> found = new ArrayList<>();
            if (alert.get("details") instanceof com.fasterxml.jackson.databind.JsonNode details) {
                if (details.path("scheduleId").isTextual())
                    found.add(
                            new AlertLink("schedule", details.path("scheduleId").asText()));
                for (com.fasterxml.jackson.databind.JsonNode job : details.path("jobs")) {
                    if (job.path("jobId").isTextual())
                        found.add(new AlertLink("job", job.path("jobId").asText()));
                }
            }
            links.put((String) alert.get("alertId"), found);
        }
        return links;
    }

    @GetMapping("/console/workers")
    String workers(Model model) {
        model.addAttribute("workers", stats.workers(stats.databaseNow(), access.listable(null)));
        model.addAttribute("page", "workers");
        return "console/workers";
    }

    @GetMapping("/console/nodes")
    String nodes(Model model) {
        Overview o = stats.overview(null, access.listable(null));
        model.addAttribute("o", o);
        model.addAttribute("page", "nodes");
        return "console/nodes";
    }

    @GetMapping("/console/audit")
    String audit(
            @RequestParam(name = "actor", required = false) String actor,
            @RequestParam(name = "type", required = false) String type,
            @RequestParam(name = "namespace", required = false) String namespace,
            @RequestParam(name = "from", required = false) String from,
            @RequestParam(name = "to", required = false) String to,
            @RequestParam(name = "before", required = false) String before,
            Model model) {
        List<FieldError> errors = new ArrayList<>();
        Instant fromAt = instant("from", from, errors);
        Instant toAt = instant("to", to, errors);
        Long beforeIndex = null;
        if (blank(before) != null) {
            try {
                beforeIndex = Long.parseLong(before.trim());
            } catch (NumberFormatException e) {
                errors.add(new FieldError("before", "must be an event index"));
            }
        }
        if (!errors.isEmpty()) throw new InvalidRequestException(errors);
        AuditFeed.Page page = audit.page(
                bounded("actor", actor),
                bounded("type", type),
                access.listable(bounded("namespace", namespace)),
                fromAt,
                toAt,
                beforeIndex);
        model.addAttribute("feed", page);
        model.addAttribute("actor", blank(actor));
        model.addAttribute("type", blank(type));
        model.addAttribute("namespace", blank(namespace));
        model.addAttribute("from", blank(from));
        model.addAttribute("to", blank(to));
        model.addAttribute("page", "audit");
        return "console/audit";
    }

    /** The schedule, if the user may see its namespace: 404 otherwise, as for an unknown id. */
    private ScheduleView schedule(String scheduleId) {
        ScheduleView s = schedules
                .handle(new FindSchedule(scheduleId))
                .orElseThrow(() -> new NotFoundException("schedule", scheduleId));
        access.see(s.namespace(), "schedule", scheduleId);
        return s;
    }

    /** A backoff as the API takes it back: only the fields it has (exponential or a list of delays, never both). */
    static Map<String, Object> withoutNulls(io.axscheduler.api.job.Backoff backoff) {
        Map<String, Object> fields = new java.util.LinkedHashMap<>();
        if (backoff.initialMs() != null) fields.put("initialMs", backoff.initialMs());
        if (backoff.multiplier() != null) fields.put("multiplier", backoff.multiplier());
        if (backoff.maxMs() != null) fields.put("maxMs", backoff.maxMs());
        if (backoff.delaysMs() != null) fields.put("delaysMs", backoff.delaysMs());
        return fields;
    }

    /** An instant as a datetime-local input shows it: the console reads such values as UTC. */
    static String localUtc(Instant at) {
        // a datetime-local input refuses (and empties) a value finer than its step, a millisecond
        return LocalDateTime.ofInstant(at.truncatedTo(java.time.temporal.ChronoUnit.MILLIS), ZoneOffset.UTC)
                .toString();
    }

    /** An ISO instant, or a browser's datetime-local value (taken as UTC). */
    static Instant instant(String field, String raw, List<FieldError> errors) {
        String v = blank(raw);
        if (v == null) return null;
        try {
            return Instant.parse(v);
        } catch (DateTimeParseException e) {
            try {
                return LocalDateTime.parse(v).toInstant(ZoneOffset.UTC);
            } catch (DateTimeParseException e2) {
                FieldError error = new FieldError(field, "must be an ISO-8601 instant, e.g. 2026-11-30T10:00:00Z");
                if (errors == null) throw new InvalidRequestException(List.of(error));
                errors.add(error);
                return null;
            }
        }
    }

    private static String bounded(String field, String raw) {
        String v = blank(raw);
        if (v != null && v.length() > 255) throw InvalidRequestException.of(field, "must be at most 255 characters");
        return v;
    }

    static String blank(String v) {
        return v == null || v.isBlank() ? null : v.trim();
    }
}
