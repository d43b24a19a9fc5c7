package io.axscheduler.command;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.IsoInstants;
import io.axscheduler.api.Namespaces;
import io.axscheduler.api.TimeOrderedIds;
import io.axscheduler.api.alert.AlertJobKeys;
import io.axscheduler.api.job.Backoff;
import io.axscheduler.api.job.RetryPolicy;
import io.axscheduler.api.job.RouteStrategy;
import io.axscheduler.api.job.SubmitJob;
import io.axscheduler.api.problem.FieldError;
import io.axscheduler.api.schedule.ScheduleJobKeys;
import io.axscheduler.api.security.Access;
import io.axscheduler.api.security.Caller;
import io.axscheduler.api.security.Role;
import io.axscheduler.api.spi.JobTypeCatalog;
import io.axscheduler.api.worker.RegisterWorker;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns one job of a submit body into a {@link SubmitJob}, or into the list of everything wrong with it, each error
 * naming its field. Reads the JSON tree itself so that a wrong type ({@code "priority": "high"}) or an unknown field
 * ({@code "maxRetry"}) is reported against the field, not as an unreadable body.
 */
public final class JobRequestParser {

    static final int MAX_PARAMS_BYTES = 64 * 1024;
    static final int MAX_PRIORITY = 1_000;
    static final long MAX_DELAY_MS = 366L * 24 * 3600 * 1000;
    /** How far ahead runAt may lie: far enough for any real plan, near enough that epoch milliseconds hold it. */
    static final long MAX_RUN_AT_AHEAD_MS = 10 * MAX_DELAY_MS;

    static final long MAX_TIMEOUT_MS = 24L * 3600 * 1000;
    public static final int MAX_KEY_LENGTH = 255;

    /** The keys of schedules' fires and of alerts' deliveries: taken first by a submit, they would stop them. */
    static final List<String> RESERVED_KEY_PREFIXES = List.of(ScheduleJobKeys.PREFIX, AlertJobKeys.PREFIX);

    static final int MAX_NAME_LENGTH = 100;

    private static final Set<String> FIELDS = Set.of(
            "jobKey",
            "jobType",
            "params",
            "priority",
            "runAt",
            "delayMs",
            "maxRetries",
            "backoff",
            "timeoutMs",
            "executorApp",
            "routeStrategy",
            "namespace");
    private static final Set<String> BACKOFF_FIELDS = Set.of("initialMs", "multiplier", "maxMs", "delaysMs");

    private final JobTypeCatalog jobTypes;
    private final ObjectMapper json;
    private final Clock clock;

    JobRequestParser(JobTypeCatalog jobTypes, ObjectMapper json, Clock clock) {
        this.jobTypes = jobTypes;
        this.json = json;
        this.clock = clock;
    }

    /**
     * Adds to {@code errors} (fields prefixed with {@code path}) and returns null when anything is wrong;
     * {@code home}: the namespace when the body names none ({@link Caller#homeNamespace()}).
     */
    SubmitJob parse(JsonNode body, String path, List<FieldError> errors, String home) {
        int before = errors.size();
        if (body == null || !body.isObject()) {
            errors.add(new FieldError(path.isEmpty() ? "body" : path, "must be a JSON object"));
            return null;
        }
        JsonFields f = new JsonFields(body, path, errors);
        f.rejectUnknown(FIELDS);

        String namespace = namespace(f, home);
        String jobType = f.string("jobType", MAX_NAME_LENGTH);
        if (jobType == null) {
            if (!f.has("jobType")) f.error("jobType", "is required");
        } else {
            checkJobType(f, jobTypes, namespace, jobType);
        }
        String jobKey = f.name("jobKey", MAX_KEY_LENGTH);
        if (jobKey != null) {
            RESERVED_KEY_PREFIXES.stream()
                    .filter(jobKey::startsWith)
                    .forEach(reserved -> f.error(
                            "jobKey",
                            "must not begin with '" + reserved + "': such keys name the scheduler's own jobs"));
        }
        Map<String, Object> params = readParams(f, json);
        int priority = (int) f.integer("priority", -MAX_PRIORITY, MAX_PRIORITY, 0);
        Instant runAt = runAt(f);
        int maxRetries =
                (int) f.integer("maxRetries", 0, RetryPolicy.MAX_RETRIES_LIMIT, RetryPolicy.DEFAULT_MAX_RETRIES);
        Backoff backoff = readBackoff(f);
        long timeoutMs = f.integer("timeoutMs", 1, MAX_TIMEOUT_MS, 30_000);
        String executorApp = executorApp(f);
        String routeStrategy = f.string("routeStrategy", MAX_NAME_LENGTH);
        if (routeStrategy != null && !isRouteStrategy(routeStrategy)) {
            f.error("routeStrategy", "must be one of " + List.of(RouteStrategy.values()));
        }
        checkParams(f, jobTypes, jobType, executorApp, params);
        checkExecutorApp(f, jobTypes, namespace, jobType, executorApp);
        if (errors.size() > before) {
            return null;
        }
        return new SubmitJob(
                TimeOrderedIds.next(clock.millis()),
                jobKey,
                jobType,
                params,
                priority,
                runAt,
                new RetryPolicy(maxRetries, backoff),
                timeoutMs,
                null,
                executorApp,
                routeStrategy,
                namespace);
    }

    /**
     * An error under {@code jobType} unless a job of {@code namespace} may name it; the error lists the types that
     * namespace may name, no other namespace's. Not judged when the namespace is not one (null: that is the error).
     * Shared with schedules.
     */
    public static void checkJobType(JsonFields f, JobTypeCatalog jobTypes, String namespace, String jobType) {
        if (JobTypeCatalog.reserved(jobType)) {
            f.error(
                    "jobType",
                    "'" + JobTypeCatalog.RESERVED_PREFIX + "' types are the scheduler's own; no request names one");
        } else if (namespace != null && !jobTypes.knows(namespace, jobType)) {
            f.error(
                    "jobType",
                    "unknown job type '" + jobType + "' in namespace '" + namespace + "'; known types: "
                            + listed(jobTypes.jobTypes(namespace)));
        }
    }

    /** Known types a refusal lists, at most (in name order), and how many more there are. */
    static final int MAX_TYPES_LISTED = 50;

    private static String listed(java.util.Set<String> types) {
        if (types.size() <= MAX_TYPES_LISTED) return types.toString();
        return types.stream().sorted().limit(MAX_TYPES_LISTED).toList() + " and " + (types.size() - MAX_TYPES_LISTED)
                + " more";
    }

    /**
     * An error under {@code executorApp} when the job is bound to an app but its type is one only the scheduler's nodes
     * run (no worker registered in {@code namespace} runs it): it would wait for a worker that is not coming, and be
     * given up after {@code no-worker-timeout}. Not judged when the type is unknown anyway (that is the error).
     */
    public static void checkExecutorApp(
            JsonFields f, JobTypeCatalog jobTypes, String namespace, String jobType, String executorApp) {
        if (executorApp == null || namespace == null || jobType == null) return;
        if (jobTypes.knows(namespace, jobType) && !jobTypes.workersRun(namespace, jobType)) {
            f.error(
                    "executorApp",
                    "job type '" + jobType + "' runs on the scheduler's nodes, and no worker registered in namespace '"
                            + namespace + "' runs it: a job bound to executorApp '" + executorApp
                            + "' would wait for one (leave executorApp out to run it on the nodes)");
        }
    }

    /**
     * 403 unless {@code who} may act as {@code role} in the namespace {@code item} (a request or a batch item) names,
     * when it names one: the controllers ask before they answer with the item's errors, which list that namespace's
     * job types. The parsed request is checked again.
     */
    public static void mayActInNamed(Caller who, JsonNode item, Role role) {
        if (item == null || !item.isObject()) return;
        String namespace = namespace(new JsonFields(item, "", new ArrayList<>()), Caller.homeNamespace(who));
        if (namespace != null) Access.act(who, namespace, role, item);
    }

    /**
     * {@code namespace}: {@code [a-z0-9-]{1,63}}, {@code home} when absent, null (and an error) when it is not a
     * namespace. Shared with schedules.
     */
    public static String namespace(JsonFields f, String home) {
        if (!f.has("namespace")) return home;
        String namespace = f.string("namespace", 63);
        if (namespace != null && !Namespaces.isValid(namespace)) {
            f.error("namespace", "must be 1-63 lowercase letters, digits or '-'");
            return null;
        }
        if (Namespaces.isReserved(namespace)) {
            f.error("namespace", Namespaces.RESERVED_MESSAGE);
            return null;
        }
        return namespace;
    }

    /**
     * The params a job of an in-process type would fail on at run time, as errors under {@code params}; a job for an
     * executor app is judged by its workers.
     */
    public static void checkParams(
            JsonFields f, JobTypeCatalog jobTypes, String jobType, String executorApp, Map<String, Object> params) {
        if (jobType == null || executorApp != null || params == null) return;
        jobTypes.paramProblems(jobType, params).forEach((field, reason) -> f.error("params." + field, reason));
    }

    /** {@code params}: a JSON object of at most 64 KiB, or empty. Shared with the job template of a schedule. */
    public static Map<String, Object> readParams(JsonFields f, ObjectMapper json) {
        JsonNode node = f.node("params");
        if (node == null) return Map.of();
        if (!node.isObject()) {
            f.error("params", "must be a JSON object");
            return null;
        }
        String malformed = JsonFields.firstMalformed(node, "params");
        if (malformed != null) {
            f.error(malformed, "must be valid Unicode (it holds a lone surrogate)");
            return null;
        }
        String tooLarge = JsonFields.firstNonFinite(node, "params");
        if (tooLarge != null) {
            f.error(tooLarge, "is a number beyond the range of a 64-bit float (about ±1.8E308)");
            return null;
        }
        try {
            int bytes = json.writeValueAsString(node).getBytes(StandardCharsets.UTF_8).length;
            if (bytes > MAX_PARAMS_BYTES) {
                f.error("params", "must be at most 64 KiB of JSON, was " + bytes + " bytes");
                return null;
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> params = json.treeToValue(node, LinkedHashMap.class);
            return params;
        } catch (JsonProcessingException e) {
            f.error("params", "cannot be read: " + e.getOriginalMessage());
            return null;
        }
    }

    private Instant runAt(JsonFields f) {
        String runAt = f.string("runAt", 64);
        long delayMs = f.integer("delayMs", 0, MAX_DELAY_MS, 0);
        if (runAt != null && f.has("delayMs")) {
            f.error("runAt", "give runAt or delayMs, not both");
            return null;
        }
        if (runAt == null) {
            return clock.instant().plusMillis(delayMs);
        }
        try {
            Instant at = IsoInstants.parse(runAt);
            if (at.isBefore(Instant.EPOCH) || at.isAfter(clock.instant().plusMillis(MAX_RUN_AT_AHEAD_MS))) {
                f.error("runAt", "must lie between 1970 and ten years from now");
                return null;
            }
            return at;
        } catch (DateTimeParseException e) {
            f.error("runAt", "must be an ISO-8601 instant such as 2026-11-30T10:00:00.000Z");
            return null;
        }
    }

    /** {@code backoff}: exponential or an explicit list of delays, each bounded. Shared with schedules. */
    /** A job's {@code executorApp}: a name a worker can register under ({@link RegisterWorker#NAME}), or none. */
    public static String executorApp(JsonFields f) {
        String app = f.string("executorApp", MAX_NAME_LENGTH);
        if (app != null && !RegisterWorker.NAME.matcher(app).matches()) {
            f.error("executorApp", "must match " + RegisterWorker.NAME.pattern() + ", as a worker's app does");
            return null;
        }
        return app;
    }

    public static Backoff readBackoff(JsonFields f) {
        JsonNode node = f.node("backoff");
        if (node == null) return Backoff.defaults();
        if (!node.isObject()) {
            f.error("backoff", "must be a JSON object");
            return null;
        }
        JsonFields b = f.nested("backoff", node);
        b.rejectUnknown(BACKOFF_FIELDS);
        int before = f.errorCount();
        List<Long> delays = null;
        JsonNode delayNodes = b.node("delaysMs");
        if (delayNodes != null) {
            if (!delayNodes.isArray()) {
                b.error("delaysMs", "must be an array of milliseconds");
            } else {
                delays = new ArrayList<>();
                for (int i = 0; i < delayNodes.size(); i++) {
                    JsonNode d = delayNodes.get(i);
                    if (!d.canConvertToLong() || !d.isIntegralNumber() || d.asLong() < 0 || d.asLong() > MAX_DELAY_MS) {
                        b.error(
                                "delaysMs[" + i + "]",
                                "must be a whole number of milliseconds from 0 to " + MAX_DELAY_MS);
                    } else {
                        delays.add(d.asLong());
                    }
                }
            }
        }
        Long initialMs = b.has("initialMs") ? b.integer("initialMs", 0, MAX_DELAY_MS, 0) : null;
        Double multiplier = b.has("multiplier") ? b.decimal("multiplier") : null;
        Long maxMs = b.has("maxMs") ? b.integer("maxMs", 0, MAX_DELAY_MS, 0) : null;
        // what Backoff itself refuses, named by the field it is about (Backoff's message names the object); only
        // for fields read without an error of their own, and not for both shapes at once, which Backoff refuses as
        // the object
        boolean exponential = initialMs != null || multiplier != null || maxMs != null;
        if (f.errorCount() == before && !(delays != null && exponential)) {
            if (delays != null && (delayNodes.isEmpty() || delayNodes.size() > Backoff.MAX_DELAYS)) {
                b.error("delaysMs", "must hold 1 to " + Backoff.MAX_DELAYS + " delays");
            }
            if (multiplier != null && !(multiplier >= 1.0 && multiplier <= 100.0)) {
                b.error("multiplier", "must be between 1 and 100");
            }
            long initial = initialMs != null ? initialMs : Backoff.DEFAULT_INITIAL_MS;
            if (maxMs != null && maxMs < initial) {
                b.error(
                        "maxMs",
                        "must be at least initialMs (" + initial + (initialMs == null ? " when not given)" : ")"));
            }
        }
        if (f.errorCount() > before) return null;
        try {
            return new Backoff(initialMs, multiplier, maxMs, delays);
        } catch (IllegalArgumentException e) {
            f.error("backoff", e.getMessage());
            return null;
        }
    }

    private static boolean isRouteStrategy(String name) {
        for (RouteStrategy s : RouteStrategy.values()) {
            if (s.name().equals(name)) return true;
        }
        return false;
    }
}
