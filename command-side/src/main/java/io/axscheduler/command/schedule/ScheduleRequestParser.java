package io.axscheduler.command.schedule;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.IsoInstants;
import io.axscheduler.api.job.Backoff;
import io.axscheduler.api.job.RetryPolicy;
import io.axscheduler.api.job.RouteStrategy;
import io.axscheduler.api.problem.FieldError;
import io.axscheduler.api.problem.InvalidRequestException;
import io.axscheduler.api.schedule.*;
import io.axscheduler.api.spi.JobTypeCatalog;
import io.axscheduler.command.JobRequestParser;
import io.axscheduler.command.JsonFields;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a schedule body from the JSON tree, naming the field of every error ({@code trigger.expression},
 * {@code job.jobType}, {@code misfirePolicy}). Refuses triggers that fire more often than the configured floor: a
 * daily job typed as every minute runs 1,440 times a night.
 */
final class ScheduleRequestParser {

    static final int MAX_NAME_LENGTH = 200;
    static final int MAX_PARAMS_BYTES = 64 * 1024;
    static final int MAX_PRIORITY = 1_000;
    static final long MAX_TIMEOUT_MS = 24L * 3600 * 1000;
    static final long MAX_INTERVAL_MS = 366L * 24 * 3600 * 1000;

    private static final Set<String> FIELDS =
            Set.of("name", "trigger", "job", "misfirePolicy", "overlapPolicy", "namespace", "scheduleKey");
    private static final Set<String> TRIGGER_FIELDS =
            Set.of("type", "expression", "timezone", "dialect", "intervalMs", "delayMs", "at", "startAt");
    private static final Set<String> JOB_FIELDS = Set.of(
            "jobType",
            "params",
            "priority",
            "maxRetries",
            "backoff",
            "retryPolicy",
            "timeoutMs",
            "executorApp",
            "routeStrategy",
            "namespace");
    private static final Set<String> RETRY_POLICY_FIELDS = Set.of("maxRetries", "backoff");

    private final JobTypeCatalog jobTypes;
    private final ObjectMapper json;
    private final long minIntervalMs;

    ScheduleRequestParser(JobTypeCatalog jobTypes, ObjectMapper json, long minIntervalMs) {
        this.jobTypes = jobTypes;
        this.json = json;
        this.minIntervalMs = minIntervalMs;
    }

    /** {@code home}: the namespace when the body names none ({@link io.axscheduler.api.security.Caller#homeNamespace()}). */
    ScheduleRequest parse(JsonNode body, Instant now, String home) {
        if (body == null || !body.isObject()) {
            throw InvalidRequestException.of("body", "must be a JSON object");
        }
        List<FieldError> errors = new ArrayList<>();
        ScheduleRequest request = parse(body, "", errors, now, home);
        if (!errors.isEmpty()) throw new InvalidRequestException(errors);
        return request;
    }

    /**
     * A schedule's new definition: its job type judged in {@code namespace}, the schedule's, whatever the body names
     * (the caller refuses a body that names another).
     */
    ScheduleRequest parseIn(String namespace, JsonNode body, Instant now) {
        return parseIn(namespace, null, body, now);
    }

    /**
     * As {@link #parseIn(String, JsonNode, Instant)}, where {@code kept} is the schedule's trigger now: a body that
     * leaves it as it is is not judged again (a fired {@code once} schedule's time has passed; a fixed rate's
     * {@code startAt} may lie years back), so a schedule read and sent back stays valid.
     */
    ScheduleRequest parseIn(String namespace, Trigger kept, JsonNode body, Instant now) {
        if (body == null || !body.isObject()) {
            throw InvalidRequestException.of("body", "must be a JSON object");
        }
        List<FieldError> errors = new ArrayList<>();
        ScheduleRequest request = parse(body, "", errors, now, namespace, namespace, kept);
        if (!errors.isEmpty()) throw new InvalidRequestException(errors);
        return request;
    }

    /** One schedule of a batch, its fields named under {@code prefix} ({@code schedules[3].trigger.startAt}); null when it has errors. */
    ScheduleRequest parse(JsonNode body, String prefix, List<FieldError> errors, Instant now, String home) {
        return parse(body, prefix, errors, now, home, null, null);
    }

    /**
     * {@code home}: the namespace when the body names none; {@code schedulesNamespace}: the namespace of the schedule an
     * update changes, null for a new one; {@code kept}: its trigger, null for a new one.
     */
    private ScheduleRequest parse(
            JsonNode body,
            String prefix,
            List<FieldError> errors,
            Instant now,
            String home,
            String schedulesNamespace,
            Trigger kept) {
        if (body == null || !body.isObject()) {
            errors.add(new FieldError(prefix.isEmpty() ? "body" : prefix, "must be a JSON object"));
            return null;
        }
        int before = errors.size();
        JsonFields f = new JsonFields(body, prefix, errors);
        f.rejectUnknown(FIELDS);
        String name = f.name("name", MAX_NAME_LENGTH);
        Trigger trigger = trigger(f, now, kept);
        String namespace = JobRequestParser.namespace(f, home);
        JobTemplate job = job(f, schedulesNamespace != null ? schedulesNamespace : namespace);
        MisfirePolicy misfire = f.enumValue("misfirePolicy", MisfirePolicy.class, MisfirePolicy.DEFAULT);
        OverlapPolicy overlap = f.enumValue("overlapPolicy", OverlapPolicy.class, OverlapPolicy.DEFAULT);
        String scheduleKey = f.name("scheduleKey", JobRequestParser.MAX_KEY_LENGTH);
        if (errors.size() > before) return null;
        return new ScheduleRequest(name, trigger, job.inNamespace(namespace), misfire, overlap, namespace, scheduleKey);
    }

    /**
     * The expression, or an error: cron-utils reads any Unicode digit as a number (Arabic-Indic zeros made
     * "٠ ٠ * * * ?" hourly), and a cron is written in ASCII. Judged on requests only: a stored trigger is read as it was.
     */
    private static String ascii(JsonFields f, String expression) {
        if (expression != null && !expression.chars().allMatch(c -> c >= 0x20 && c < 0x7F)) {
            f.error("expression", "must be written in ASCII characters (digits 0-9, letters, * ? / , - L W #)");
            return null;
        }
        return expression;
    }

    /** A cron expression alone, as {@code POST /api/v1/cron/validate} sends it. */
    static Trigger cron(JsonNode body, List<FieldError> errors, Instant now) {
        JsonFields f = new JsonFields(body, "", errors);
        f.rejectUnknown(Set.of("expression", "timezone", "dialect", "count"));
        String expression = ascii(f, f.string("expression", Trigger.MAX_EXPRESSION_LENGTH));
        if (expression == null && !f.has("expression")) f.error("expression", "is required");
        String timezone = f.string("timezone", 100);
        CronDialect dialect = dialect(f);
        if (!errors.isEmpty()) return null;
        Trigger trigger = build(f, timezone, zone -> Trigger.cron(expression, zone, dialect));
        return trigger != null && fires(f, trigger, now) ? trigger : null;
    }

    private Trigger trigger(JsonFields top, Instant now, Trigger kept) {
        JsonNode node = top.node("trigger");
        if (node == null) {
            top.error("trigger", "is required");
            return null;
        }
        if (!node.isObject()) {
            top.error("trigger", "must be a JSON object");
            return null;
        }
        JsonFields f = top.nested("trigger", node);
        int before = f.errorCount();
        f.rejectUnknown(TRIGGER_FIELDS);
        String typeName = f.string("type", 40);
        TriggerType type = typeName == null ? null : TriggerType.fromWireName(typeName);
        if (typeName == null && !f.has("type"))
            f.error("type", "is required: one of cron, fixedRate, fixedDelay, once");
        else if (typeName != null && type == null)
            f.error("type", "unknown trigger type '" + typeName + "'; one of cron, fixedRate, fixedDelay, once");
        String expression = ascii(f, f.string("expression", Trigger.MAX_EXPRESSION_LENGTH));
        String timezone = f.string("timezone", 100);
        CronDialect dialect = dialect(f);
        Long intervalMs = f.has("intervalMs") ? f.integer("intervalMs", MAX_INTERVAL_MS) : null;
        Long delayMs = f.has("delayMs") ? f.integer("delayMs", MAX_INTERVAL_MS) : null;
        Instant at = f.instant("at");
        Instant startAt = f.instant("startAt");
        if (f.errorCount() > before) return null;
        Trigger trigger = build(
                f, timezone, zone -> new Trigger(type, expression, zone, dialect, intervalMs, delayMs, at, startAt));
        if (trigger == null) return null;
        if (trigger.equals(kept)) return trigger;
        if (type == TriggerType.ONCE && !at.isAfter(now)) {
            f.error(
                    "at",
                    "must lie in the future; it is " + IsoInstants.millis(at) + " and now is "
                            + IsoInstants.millis(now));
            return null;
        }
        if (type == TriggerType.ONCE && at.isAfter(now.plusMillis(10 * MAX_INTERVAL_MS))) {
            f.error("at", "must lie within ten years");
            return null;
        }
        if (startAt != null && Duration.between(now, startAt).abs().toMillis() > 10 * MAX_INTERVAL_MS) {
            f.error("startAt", "must lie within ten years of now");
            return null;
        }
        if (!fires(f, trigger, now)) return null;
        checkFloor(f, trigger, now);
        return trigger;
    }

    /** A cron expression that never fires or crashes on some month is the expression's error, for validate and create. */
    private static boolean fires(JsonFields f, Trigger trigger, Instant now) {
        try {
            FireTimes.requireFires(trigger, now);
            return true;
        } catch (InvalidTriggerException e) {
            f.error(e.field(), e.reason());
            return false;
        }
    }

    private void checkFloor(JsonFields f, Trigger trigger, Instant now) {
        // no cron expression fires more often than its dialect's finest field: sampling its fires could not refuse it
        if (trigger.type() == TriggerType.CRON && minIntervalMs <= FireTimes.cronResolutionMs(trigger.dialect()))
            return;
        FireTimes.shortestInterval(trigger, now, now).ifPresent(shortest -> {
            if (shortest.toMillis() < minIntervalMs) {
                String field = switch (trigger.type()) {
                    case CRON -> "expression";
                    case FIXED_RATE -> "intervalMs";
                    default -> "delayMs";
                };
                f.error(
                        field,
                        "fires every " + FireTimes.humanDuration(shortest.toMillis()) + " (up to "
                                + Duration.ofDays(1).toMillis() / Math.max(1, shortest.toMillis())
                                + " times a day), more often than the floor of once every "
                                + FireTimes.humanDuration(minIntervalMs) + " (ax.scheduler.schedules.min-interval-ms)");
            }
        });
    }

    private JobTemplate job(JsonFields top, String namespace) {
        JsonNode node = top.node("job");
        if (node == null) {
            top.error("job", "is required");
            return null;
        }
        if (!node.isObject()) {
            top.error("job", "must be a JSON object");
            return null;
        }
        JsonFields f = top.nested("job", node);
        int before = f.errorCount();
        f.rejectUnknown(JOB_FIELDS);
        String jobType = f.string("jobType", 100);
        if (jobType == null) {
            if (!f.has("jobType")) f.error("jobType", "is required");
        } else {
            JobRequestParser.checkJobType(f, jobTypes, namespace, jobType);
        }
        // the view shows the job's namespace, which is always the schedule's: sent back, it must be that one
        if (namespace != null && f.has("namespace")) {
            String given = f.string("namespace", 100);
            if (given != null && !given.equals(namespace)) {
                f.error("namespace", "must be the schedule's namespace '" + namespace + "' (or left out)");
            }
        }
        Map<String, Object> params = JobRequestParser.readParams(f, json);
        long priority = f.has("priority") ? f.integer("priority", -MAX_PRIORITY, MAX_PRIORITY) : 0;
        // the policy as the schedule's view shows it ({"retryPolicy": {"maxRetries", "backoff"}}) or as a job's
        // request gives it (flat): a schedule read and sent back as it is is accepted
        JsonFields retry = f;
        if (f.has("retryPolicy")) {
            JsonNode policy = f.node("retryPolicy");
            if (f.has("maxRetries") || f.has("backoff")) {
                f.error("retryPolicy", "give either retryPolicy or maxRetries and backoff, not both");
            } else if (!policy.isObject()) {
                f.error("retryPolicy", "must be a JSON object");
            } else {
                retry = f.nested("retryPolicy", policy);
                retry.rejectUnknown(RETRY_POLICY_FIELDS);
            }
        }
        long maxRetries = retry.has("maxRetries")
                ? retry.integer("maxRetries", 0, RetryPolicy.MAX_RETRIES_LIMIT)
                : RetryPolicy.DEFAULT_MAX_RETRIES;
        Backoff backoff = JobRequestParser.readBackoff(retry);
        long timeoutMs = f.has("timeoutMs") ? f.integer("timeoutMs", 1, MAX_TIMEOUT_MS) : 30_000;
        String executorApp = JobRequestParser.executorApp(f);
        String routeStrategy = f.string("routeStrategy", 100);
        if (routeStrategy != null
                && Arrays.stream(RouteStrategy.values()).noneMatch(s -> s.name().equals(routeStrategy))) {
            f.error("routeStrategy", "must be one of " + List.of(RouteStrategy.values()));
        }
        JobRequestParser.checkParams(f, jobTypes, jobType, executorApp, params);
        JobRequestParser.checkExecutorApp(f, jobTypes, namespace, jobType, executorApp);
        if (f.errorCount() > before) return null;
        return new JobTemplate(
                jobType,
                params,
                (int) priority,
                new RetryPolicy((int) maxRetries, backoff),
                timeoutMs,
                executorApp,
                routeStrategy);
    }

    private static CronDialect dialect(JsonFields f) {
        String name = f.string("dialect", 20);
        if (name == null) return null;
        CronDialect dialect = CronDialect.fromWireName(name);
        if (dialect == null) f.error("dialect", "unknown dialect '" + name + "'; one of quartz, unix");
        return dialect;
    }

    /**
     * The trigger made with {@code timezone}, or null with its error recorded. A zone Java does not know is checked
     * first; the rest is checked again in UTC then, so that a bad expression beside it is named too.
     */
    private static Trigger build(JsonFields f, String timezone, java.util.function.Function<String, Trigger> trigger) {
        try {
            return trigger.apply(timezone);
        } catch (InvalidTriggerException e) {
            f.error(e.field(), e.reason());
            if (e.field().equals("timezone")) {
                try {
                    trigger.apply(null);
                } catch (InvalidTriggerException besides) {
                    f.error(besides.field(), besides.reason());
                }
            }
            return null;
        }
    }
}
