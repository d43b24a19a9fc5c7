package io.axscheduler.scheduler.remote;

import io.axscheduler.api.Namespaces;
import io.axscheduler.api.TextLimit;
import io.axscheduler.api.admin.RecordWorkerRemoval;
import io.axscheduler.api.problem.FieldError;
import io.axscheduler.api.problem.ForbiddenException;
import io.axscheduler.api.problem.InvalidRequestException;
import io.axscheduler.api.problem.NotFoundException;
import io.axscheduler.api.security.Caller;
import io.axscheduler.api.spi.JobTypeCatalog;
import io.axscheduler.api.worker.RegisterWorker;
import io.axscheduler.api.worker.WorkerRegistered;
import io.axscheduler.api.worker.WorkerView;
import io.axscheduler.scheduler.DatabaseTime;
import io.axscheduler.scheduler.DatabaseUnreachable;
import io.axscheduler.scheduler.SchedulerCommands;
import io.axscheduler.scheduler.remote.route.Candidate;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The worker registry: the {@code workers} table. Every time in it is the database's, so nodes agree on who is
 * silent; a heartbeat is an UPDATE, not an event.
 */
@Component
public class WorkerRegistry {

    static final int MAX_JOB_TYPES = 100;
    static final long MISS_REFRESH_MS = 100;
    static final long FORGET_TYPES_EVERY_MS = 60_000;
    /**
     * Kept types of one namespace, at most: the oldest go first. A WORKER key registering made-up types and leaving
     * again would otherwise fill the table for a day, and every submit's snapshot reads it.
     */
    static final int MAX_KEPT_TYPES = 1000;

    private static final Pattern NAME = RegisterWorker.NAME;
    private static final String COLUMNS = "worker_id, app, address, job_types, capacity, registered_at, last_heartbeat,"
            + " in_flight, last_used, consecutive_failures, cooling_until, namespace";
    private static final SecureRandom random = new SecureRandom();

    private final NamedParameterJdbcTemplate jdbc;
    private final TransactionTemplate transaction;
    private final WorkerProperties properties;
    private final WorkerAddresses addresses;
    private final SchedulerCommands commands;
    /** Registrations on this node: a snapshot taken before the latest one is stale whatever its age. */
    private final AtomicLong registrations = new AtomicLong();

    private volatile Snapshot knownTypes = new Snapshot(Map.of(), 0, -1);
    private volatile long typesForgottenAtMs = Long.MIN_VALUE / 2;

    private final Clock clock;

    public WorkerRegistry(
            NamedParameterJdbcTemplate jdbc,
            TransactionTemplate transaction,
            WorkerProperties properties,
            WorkerAddresses addresses,
            SchedulerCommands commands,
            Clock clock) {
        this.clock = clock;
        this.commands = commands;
        this.jdbc = jdbc;
        this.addresses = addresses;
        this.transaction = transaction;
        this.properties = properties;
    }

    /** A registered worker as the registry holds it. */
    public record Registered(
            String app, Candidate candidate, long lastHeartbeat, long coolingUntil, String namespace) {}

    /** Who may heartbeat and remove a worker: the principal that registered it, in its namespace. */
    public record Owner(String namespace, String registeredBy) {}

    /**
     * {@code mayReplaceAnyone}: an admin's registration. Anyone else's may not take the address of a worker of its
     * app and namespace that another principal registered and that is still heard: {@link RemoveWorkers#replacedBy}
     * would remove that worker and time out its runs, which only its own key (a restarted service) or an admin may
     * do. Once it has missed two heartbeats it is taken for gone, and may be replaced (a key rotated at a restart).
     */
    public WorkerRegistered register(
            RegisterWorker request, String registeredBy, boolean mayReplaceAnyone, String instance) {
        validate(request);
        if (!mayReplaceAnyone) {
            List<String> held = jdbc.queryForList(
                    "SELECT worker_id FROM workers WHERE app = :app AND address = :address AND namespace = :namespace"
                            + " AND NOT (registered_by <=> :by) AND last_heartbeat >= " + DatabaseTime.NOW_MS
                            + " - :quiet LIMIT 1",
                    new MapSqlParameterSource()
                            .addValue("app", request.app())
                            .addValue("address", stripSlash(request.address()))
                            .addValue("namespace", request.namespace())
                            .addValue("by", registeredBy)
                            .addValue("quiet", properties.quietMs()),
                    String.class);
            if (!held.isEmpty())
                throw new ForbiddenException("worker " + held.get(0) + " of app " + request.app() + " is registered at "
                        + stripSlash(request.address()) + " by another principal and still heard: only that"
                        + " principal or an admin may register there until it has missed two heartbeats");
        }
        String workerId = request.app() + "-" + HexFormat.of().formatHex(bytes(6));
        String secret = HexFormat.of().formatHex(bytes(32));
        jdbc.update(
                "INSERT INTO workers (worker_id, app, address, job_types, capacity, secret, registered_at, last_heartbeat,"
                        + " namespace, registered_by, instance_id)"
                        + " VALUES (:id, :app, :address, :types, :capacity, :secret, " + DatabaseTime.NOW_MS + ", "
                        + DatabaseTime.NOW_MS + ", :namespace, :registeredBy, :instance)",
                new MapSqlParameterSource(Map.of(
                                "namespace",
                                request.namespace(),
                                "registeredBy",
                                registeredBy,
                                "id",
                                workerId,
                                "app",
                                request.app(),
                                "address",
                                stripSlash(request.address()),
                                "types",
                                String.join(",", new LinkedHashSet<>(request.jobTypes())),
                                "capacity",
                                request.capacity(),
                                "secret",
                                secret))
                        .addValue("instance", instance));
        registrations.incrementAndGet();
        return new WorkerRegistered(workerId, secret, properties.heartbeatIntervalMs());
    }

    /** {@code inFlight} null: a heartbeat without a count, which leaves the scheduler's own. */
    public void heartbeat(String workerId, Integer inFlight) {
        int updated = jdbc.update(
                // a heartbeat is always heard; its count is taken within 0..capacity (the library counts a push
                // before it checks its capacity, so one over is possible for a moment)
                "UPDATE workers SET last_heartbeat = " + DatabaseTime.NOW_MS
                        + (inFlight == null ? "" : ", in_flight = LEAST(GREATEST(:inFlight, 0), capacity)")
                        + " WHERE worker_id = :id",
                inFlight == null ? Map.of("id", workerId) : Map.of("id", workerId, "inFlight", inFlight));
        if (updated == 0) throw new NotFoundException("worker", workerId);
    }

    public void deregister(String workerId) {
        transaction.executeWithoutResult(tx -> {
            if (delete(List.of(workerId)) == 0) throw new NotFoundException("worker", workerId);
        });
    }

    /**
     * Deletes the workers {@code ids} and keeps the types they ran as known in their namespaces (see
     * {@link WorkerProperties#typesKeptMs}), in the caller's transaction; the number of workers deleted.
     */
    private int delete(List<String> ids) {
        List<Map<String, Object>> left = jdbc.queryForList(
                "SELECT namespace, job_types FROM workers WHERE worker_id IN (:ids) FOR UPDATE", Map.of("ids", ids));
        if (left.isEmpty()) return 0;
        jdbc.update("DELETE FROM workers WHERE worker_id IN (:ids)", Map.of("ids", ids));
        if (properties.typesKeptMs() > 0) keepTypes(left);
        return left.size();
    }

    private void keepTypes(List<Map<String, Object>> left) {
        // namespace to types, both in name order: two removals at once lock the rows they share in the same order
        SortedMap<String, SortedSet<String>> kept = new TreeMap<>();
        for (Map<String, Object> worker : left) {
            kept.computeIfAbsent((String) worker.get("namespace"), n -> new TreeSet<>())
                    .addAll(Arrays.asList(((String) worker.get("job_types")).split(",")));
        }
        jdbc.batchUpdate(
                "INSERT INTO worker_job_types (namespace, job_type, left_at) VALUES (:namespace, :type, "
                        + DatabaseTime.NOW_MS + ") ON DUPLICATE KEY UPDATE left_at = " + DatabaseTime.NOW_MS,
                kept.entrySet().stream()
                        .flatMap(types -> types.getValue().stream()
                                .map(type -> new MapSqlParameterSource()
                                        .addValue("namespace", types.getKey())
                                        .addValue("type", type)))
                        .toArray(MapSqlParameterSource[]::new));
        for (String namespace : kept.keySet()) {
            Integer count = jdbc.queryForObject(
                    "SELECT COUNT(*) FROM worker_job_types WHERE namespace = :namespace",
                    Map.of("namespace", namespace),
                    Integer.class);
            if (count != null && count > MAX_KEPT_TYPES) {
                jdbc.update(
                        "DELETE FROM worker_job_types WHERE namespace = :namespace ORDER BY left_at, job_type"
                                + " LIMIT :excess",
                        Map.of("namespace", namespace, "excess", count - MAX_KEPT_TYPES));
            }
        }
    }

    /**
     * Deletes the kept types older than {@link WorkerProperties#typesKeptMs}, at most once a minute on each node
     * rather than at every removal: a row that outlives the setting by a minute is read as expired all the same.
     */
    public void forgetOldTypes() {
        long now = clock.millis();
        if (now - typesForgottenAtMs < FORGET_TYPES_EVERY_MS) return;
        typesForgottenAtMs = now;
        jdbc.update(
                "DELETE FROM worker_job_types WHERE left_at < " + DatabaseTime.NOW_MS + " - :kept",
                Map.of("kept", properties.typesKeptMs()));
    }

    /** How long a removal is remembered (answered 410 to the removed worker's heartbeats). */
    static final long REMOVALS_KEPT_MS = 86_400_000;

    /** A worker taken out by an admin or with its key: who did it, why, and when (the database's clock). */
    public record Removal(Owner owner, String removedBy, String reason, Instant removedAt) {}

    /**
     * Removes the worker and remembers why for {@value #REMOVALS_KEPT_MS} ms, so that its heartbeats are told (410)
     * rather than asked to register again; removals older than that go as this one is written. The removal is an
     * event of the admin trail ({@code WorkerRemoved}, in {@code by}'s name) in the same transaction. 404 when the
     * worker is not registered.
     */
    public void remove(String workerId, Caller by, String reason) {
        transaction.executeWithoutResult(tx -> {
            Taken taken = jdbc
                    .query(
                            "SELECT namespace, registered_by, app, address FROM workers WHERE worker_id = :id"
                                    + " FOR UPDATE",
                            Map.of("id", workerId),
                            (rs, i) -> new Taken(
                                    new Owner(rs.getString(1), rs.getString(2)), rs.getString(3), rs.getString(4)))
                    .stream()
                    .findFirst()
                    .orElseThrow(() -> new NotFoundException("worker", workerId));
            deregister(workerId);
            jdbc.update(
                    "DELETE FROM worker_removals WHERE removed_at < " + DatabaseTime.NOW_MS + " - :kept",
                    Map.of("kept", REMOVALS_KEPT_MS));
            String why = TextLimit.truncate(reason);
            jdbc.update(
                    "INSERT INTO worker_removals (worker_id, namespace, registered_by, removed_by, reason, removed_at)"
                            + " VALUES (:id, :namespace, :registeredBy, :removedBy, :reason, " + DatabaseTime.NOW_MS
                            + ") ON DUPLICATE KEY UPDATE removed_by = :removedBy, reason = :reason, removed_at = "
                            + DatabaseTime.NOW_MS,
                    new MapSqlParameterSource()
                            .addValue("id", workerId)
                            .addValue("namespace", taken.owner().namespace())
                            .addValue("registeredBy", taken.owner().registeredBy())
                            .addValue("removedBy", by.actor())
                            .addValue("reason", why));
            // the worker row's lock, taken first, puts a second removal of it (another node's) after this one
            commands.sendAndWaitFor(
                    by,
                    new RecordWorkerRemoval(workerId, taken.app(), taken.owner().namespace(), taken.address(), why),
                    Map.of());
        });
    }

    private record Taken(Owner owner, String app, String address) {}

    /** The removal of a worker no longer registered, if it was removed (not silent, not deregistered) a day ago at most. */
    public Optional<Removal> removalOf(String workerId) {
        return jdbc
                .query(
                        "SELECT namespace, registered_by, removed_by, reason, removed_at FROM worker_removals"
                                + " WHERE worker_id = :id AND removed_at >= " + DatabaseTime.NOW_MS + " - :kept",
                        Map.of("id", workerId, "kept", REMOVALS_KEPT_MS),
                        (rs, i) -> new Removal(
                                new Owner(rs.getString(1), rs.getString(2)),
                                rs.getString(3),
                                rs.getString(4),
                                Instant.ofEpochMilli(rs.getLong(5))))
                .stream()
                .findFirst();
    }

    /** A registration {@link #earlierAt} a worker's address: who made it, from which process (null: not said). */
    public record Earlier(String workerId, String registeredBy, String instance) {}

    /**
     * The workers of {@code app} in {@code namespace} registered at {@code address} before {@code workerId} (by
     * registration time, then id): earlier registrations of the service now registering there (pushes are signed per
     * registration, so one address serves one). Never a later one: two registrations at once each replace only the
     * other if it came first, so the last one made stays.
     */
    public List<Earlier> earlierAt(String app, String address, String namespace, String workerId) {
        return jdbc.query(
                "SELECT w.worker_id, w.registered_by, w.instance_id FROM workers w JOIN workers mine"
                        + " ON mine.worker_id = :me WHERE w.app = :app AND w.address = :address"
                        + " AND w.namespace = :namespace AND w.worker_id <> :me"
                        + " AND (w.registered_at < mine.registered_at"
                        + " OR (w.registered_at = mine.registered_at AND w.worker_id < mine.worker_id))",
                Map.of("app", app, "address", stripSlash(address), "namespace", namespace, "me", workerId),
                (rs, i) -> new Earlier(rs.getString(1), rs.getString(2), rs.getString(3)));
    }

    /** The workers {@code actor} registered (whose heartbeats and callbacks only it may send). */
    public List<String> registeredBy(String actor) {
        return jdbc.queryForList(
                "SELECT worker_id FROM workers WHERE registered_by = :actor", Map.of("actor", actor), String.class);
    }

    public boolean databaseAnswers() {
        return DatabaseUnreachable.answers(jdbc.getJdbcTemplate());
    }

    /** What a worker's callbacks are checked against: the secret that signs them and who registered it where. */
    public record Credentials(String secret, Owner owner) {}

    /** One read of the row, for a callback; empty when the worker is not registered (any more). */
    public Optional<Credentials> credentialsOf(String workerId) {
        return jdbc
                .query(
                        "SELECT secret, namespace, registered_by FROM workers WHERE worker_id = :id",
                        Map.of("id", workerId),
                        (rs, i) -> new Credentials(rs.getString(1), new Owner(rs.getString(2), rs.getString(3))))
                .stream()
                .findFirst();
    }

    public Optional<Owner> ownerOf(String workerId) {
        return jdbc
                .query(
                        "SELECT namespace, registered_by FROM workers WHERE worker_id = :id",
                        Map.of("id", workerId),
                        (rs, i) -> new Owner(rs.getString(1), rs.getString(2)))
                .stream()
                .findFirst();
    }

    /**
     * False when the job exists in another namespace than that of the worker {@code owner} registered: such a
     * callback is refused. An unknown job is left to the dispatch rows, which count nothing for it.
     */
    public boolean mayReport(Owner owner, String jobId) {
        List<String> namespace = jdbc.queryForList(
                "SELECT namespace FROM job_queue WHERE job_id = :job", Map.of("job", jobId), String.class);
        return namespace.isEmpty() || namespace.get(0).equals(owner.namespace());
    }

    public Optional<String> secretOf(String workerId) {
        return jdbc
                .query(
                        "SELECT secret FROM workers WHERE worker_id = :id",
                        Map.of("id", workerId),
                        (rs, i) -> rs.getString(1))
                .stream()
                .findFirst();
    }

    public List<WorkerView> list() {
        long now = nowMs();
        return all().stream()
                .map(w -> new WorkerView(
                        w.candidate().workerId(),
                        w.app(),
                        w.candidate().address(),
                        List.copyOf(w.candidate().jobTypes()),
                        w.candidate().capacity(),
                        Instant.ofEpochMilli(w.lastHeartbeat()),
                        w.candidate().inFlight(),
                        w.candidate().consecutiveFailures(),
                        w.coolingUntil() > now,
                        w.namespace(),
                        WorkerView.state(w.lastHeartbeat(), w.coolingUntil(), now, properties.heartbeatIntervalMs())))
                .toList();
    }

    /** Workers that heartbeat in time and are not cooling down: the only ones that get new work. */
    public List<Registered> available() {
        return jdbc.query(
                "SELECT " + COLUMNS + " FROM workers WHERE last_heartbeat >= " + DatabaseTime.NOW_MS
                        + " - :silence AND cooling_until <= " + DatabaseTime.NOW_MS
                        + " ORDER BY registered_at, worker_id",
                Map.of("silence", properties.silenceMs()),
                WorkerRegistry::row);
    }

    /**
     * Whether a worker registered in {@code namespace} runs {@code jobType} (a worker of another namespace never runs
     * that namespace's jobs), or did until it left less than {@link WorkerProperties#typesKeptMs} ago: asked on every
     * submit, so answered from a snapshot at most a second old, taken again after every registration on this node,
     * and, for a type it does not hold, when it is more than {@value #MISS_REFRESH_MS} ms old (a worker that
     * registered on another node a moment ago is known here too).
     */
    public boolean runsJobType(String namespace, String jobType) {
        if (namespace == null) return false;
        Snapshot snapshot = current();
        if (snapshot.runs(namespace, jobType)) return true;
        if (clock.millis() - snapshot.takenAtMs() <= MISS_REFRESH_MS) return false;
        return refresh().runs(namespace, jobType);
    }

    /** The job types the workers registered in {@code namespace} run or ran (as above); none for a null namespace. */
    public Set<String> jobTypes(String namespace) {
        if (namespace == null) return Set.of();
        return current().types().getOrDefault(namespace, Set.of());
    }

    private Snapshot current() {
        Snapshot snapshot = knownTypes;
        if (snapshot.registrations() != registrations.get() || clock.millis() - snapshot.takenAtMs() > 1000)
            return refresh();
        return snapshot;
    }

    private Snapshot refresh() {
        // counted before reading: a registration that commits after the read leaves this snapshot stale
        long seen = registrations.get();
        Map<String, Set<String>> types = new HashMap<>();
        // the registered workers' types (comma-separated), and those kept of workers that left (one a row)
        jdbc.query(
                "SELECT namespace, job_types FROM workers UNION ALL SELECT namespace, job_type FROM worker_job_types"
                        + " WHERE left_at >= " + DatabaseTime.NOW_MS + " - :kept",
                Map.of("kept", properties.typesKeptMs()),
                rs -> {
                    types.computeIfAbsent(rs.getString(1), n -> new HashSet<>())
                            .addAll(Arrays.asList(rs.getString(2).split(",")));
                });
        types.replaceAll((n, jobTypes) -> Set.copyOf(jobTypes));
        Snapshot snapshot = new Snapshot(Map.copyOf(types), clock.millis(), seen);
        knownTypes = snapshot;
        return snapshot;
    }

    /** The worker took a push: its failures are forgiven, it is one job busier and was just used. */
    public void pushed(String workerId) {
        jdbc.update(
                "UPDATE workers SET consecutive_failures = 0, last_push_error = NULL, in_flight = in_flight + 1,"
                        + " last_used = "
                        + DatabaseTime.NOW_MS + " WHERE worker_id = :id",
                Map.of("id", workerId));
    }

    /**
     * A push failed. The failure that reaches the limit starts the cool-down; cooling_until is assigned first because
     * MySQL evaluates SET left to right with the values already assigned. {@code why} (which node met what) is kept for
     * "why didn't my job run?"; null keeps the one before.
     */
    public void pushFailed(String workerId, String why) {
        jdbc.update(
                "UPDATE workers SET cooling_until = CASE WHEN consecutive_failures + 1 >= :limit THEN "
                        + DatabaseTime.NOW_MS + " + :coolDown ELSE cooling_until END,"
                        + " consecutive_failures = consecutive_failures + 1,"
                        + " last_push_error = COALESCE(:why, last_push_error) WHERE worker_id = :id",
                new org.springframework.jdbc.core.namedparam.MapSqlParameterSource()
                        .addValue("id", workerId)
                        .addValue("limit", properties.failuresBeforeCoolDown())
                        .addValue("coolDown", properties.coolDownMs())
                        .addValue(
                                "why",
                                why == null || why.length() <= MAX_PUSH_ERROR
                                        ? why
                                        : why.substring(0, MAX_PUSH_ERROR)));
    }

    /** workers.last_push_error's width. */
    static final int MAX_PUSH_ERROR = 512;

    public void callbackReceived(String workerId) {
        jdbc.update(
                "UPDATE workers SET in_flight = GREATEST(in_flight - 1, 0) WHERE worker_id = :id",
                Map.of("id", workerId));
    }

    /** Removes workers silent for too long and returns their ids; each node skips the rows another is removing. */
    public List<String> removeSilent() {
        return transaction.execute(tx -> {
            List<String> silent = jdbc.queryForList(
                    "SELECT worker_id FROM workers WHERE last_heartbeat < " + DatabaseTime.NOW_MS
                            + " - :silence ORDER BY last_heartbeat LIMIT 100 FOR UPDATE SKIP LOCKED",
                    Map.of("silence", properties.silenceMs()),
                    String.class);
            if (!silent.isEmpty()) delete(silent);
            return silent;
        });
    }

    private List<Registered> all() {
        return jdbc.query(
                "SELECT " + COLUMNS + " FROM workers ORDER BY app, registered_at, worker_id",
                Map.of(),
                WorkerRegistry::row);
    }

    private long nowMs() {
        return jdbc.getJdbcTemplate().queryForObject("SELECT " + DatabaseTime.NOW_MS, Long.class);
    }

    private static Registered row(java.sql.ResultSet rs, int i) throws java.sql.SQLException {
        Set<String> types =
                new LinkedHashSet<>(Arrays.asList(rs.getString("job_types").split(",")));
        Candidate candidate = new Candidate(
                rs.getString("worker_id"),
                rs.getString("address"),
                types,
                rs.getInt("capacity"),
                rs.getInt("in_flight"),
                rs.getLong("last_used"),
                rs.getInt("consecutive_failures"),
                rs.getLong("registered_at"));
        return new Registered(
                rs.getString("app"),
                candidate,
                rs.getLong("last_heartbeat"),
                rs.getLong("cooling_until"),
                rs.getString("namespace"));
    }

    private void validate(RegisterWorker request) {
        List<FieldError> errors = new ArrayList<>();
        if (request.app() == null || !NAME.matcher(request.app()).matches()) {
            errors.add(new FieldError("app", "is required: 1-100 letters, digits, '.', '_' or '-'"));
        }
        addresses.refusal(request.address()).ifPresent(why -> errors.add(new FieldError("address", why)));
        if (request.jobTypes() == null
                || request.jobTypes().isEmpty()
                || request.jobTypes().size() > MAX_JOB_TYPES) {
            errors.add(new FieldError("jobTypes", "must list 1 to " + MAX_JOB_TYPES + " job types"));
        } else {
            for (int i = 0; i < request.jobTypes().size(); i++) {
                String type = request.jobTypes().get(i);
                if (type == null || !NAME.matcher(type).matches()) {
                    errors.add(new FieldError("jobTypes[" + i + "]", "must be 1-100 letters, digits, '.', '_' or '-'"));
                } else if (JobTypeCatalog.reserved(type)) {
                    errors.add(new FieldError(
                            "jobTypes[" + i + "]",
                            "must not begin with '" + JobTypeCatalog.RESERVED_PREFIX + "': the scheduler's own types"));
                }
            }
        }
        if (!Namespaces.isValid(request.namespace())) {
            errors.add(new FieldError("namespace", "must be 1-63 lowercase letters, digits or '-'"));
        } else if (Namespaces.isReserved(request.namespace())) {
            errors.add(new FieldError("namespace", Namespaces.RESERVED_MESSAGE));
        }
        if (request.capacity() < 1 || request.capacity() > properties.maxCapacity()) {
            errors.add(new FieldError("capacity", "must be 1.." + properties.maxCapacity()));
        }
        if (!errors.isEmpty()) throw new InvalidRequestException(errors);
    }

    private static String stripSlash(String address) {
        return address.endsWith("/") ? address.substring(0, address.length() - 1) : address;
    }

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    /** The job types of the registered workers by namespace, and when they were read. */
    private record Snapshot(Map<String, Set<String>> types, long takenAtMs, long registrations) {
        boolean runs(String namespace, String jobType) {
            return types.getOrDefault(namespace, Set.of()).contains(jobType);
        }
    }
}
