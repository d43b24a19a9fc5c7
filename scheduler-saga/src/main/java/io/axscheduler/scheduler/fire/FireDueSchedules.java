package io.axscheduler.scheduler.fire;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.TimeOrderedIds;
import io.axscheduler.api.job.JobStatus;
import io.axscheduler.api.job.SubmitJob;
import io.axscheduler.api.schedule.*;
import io.axscheduler.api.schedule.HoldBack;
import io.axscheduler.axonmysql.messaging.OneUnitOfWork;
import io.axscheduler.scheduler.DatabaseTime;
import io.axscheduler.scheduler.SchedulerCommands;
import io.axscheduler.scheduler.SchedulerProperties;
import io.axscheduler.scheduler.claim.StartDueFires;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.axonframework.modelling.command.ConcurrencyException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Fires one schedule whose time has come, or comes within the look-ahead ({@code ax.scheduler.schedules.fire-ahead-ms}),
 * in one transaction: lock its row with {@code FOR UPDATE SKIP LOCKED}
 * (another node firing it skips it), plan its due fire times with the misfire policy against database time, apply
 * the overlap policy, then for each fire send {@code FireSchedule} and the {@code SubmitJob} keyed by (schedule, fire
 * time). The aggregate refuses a fire time that is no longer due, and the job key refuses a second job for one fire
 * time (a transaction's fires insert their keys together as it commits): either failing aborts the whole
 * transaction, so a fire time makes exactly one job or none yet.
 *
 * <p>A fire made ahead makes its job at once, due at the exact fire time, so the job waits in the queue for its time
 * instead of being made a scan interval after it. Only a fire that would fire anyway is made ahead: one the overlap
 * policy would skip or queue now waits until it is due, when the previous job may have ended. A pause or delete
 * within the look-ahead does not take back a fire already made.
 *
 * <p>A fire whose job is due within {@code claim-ahead-ms} when it is made (every fire made on time with the default
 * look-ahead, and every late one) and runs on this node's pools is claimed and started in the same transaction
 * ({@link StartDueFires}), when a pool slot is free and its type is not held back.
 *
 * <p>Every command here is sent holding the schedule's row: a schedule busy with an operator's command fails the
 * fire at once instead of waiting for it (see {@code Metadata.HOLDS_ROW_LOCKS}), and is fired on a later pass.
 */
@Component
public class FireDueSchedules {

    private static final Logger log = LoggerFactory.getLogger(FireDueSchedules.class);
    /** Claimable job types {@link #typesBehind()} looks at, at most. */
    static final int MAX_TYPES_CHECKED = 200;
    /**
     * Times {@link #typesBehind()} reads a type's head again without the namespaces already found behind: a stuck
     * backlog of one namespace hides no more than that many others in a pass.
     */
    static final int MAX_NAMESPACE_ROUNDS = 4;
    /** Waiting jobs of a type {@link #waiting} counts, at most. */
    static final int MAX_WAITING_COUNTED = 100_000;

    private static final String LOCK_COLUMNS =
            "SELECT schedule_id, trigger_json, anchor_at, next_fire_at, queued_fire_at,"
                    + " misfire_policy, overlap_policy, last_job_id, job_type, namespace FROM schedules";
    /** Active and due by database time within the look-ahead ({@code :ahead}). */
    private static final String DUE = "state = 'ACTIVE' AND next_fire_at <= " + DatabaseTime.NOW_MS + " + :ahead";

    private final NamedParameterJdbcTemplate jdbc;
    private final TransactionTemplate transaction;
    private final SchedulerCommands commands;
    private final DatabaseTime databaseTime;
    private final ObjectMapper json;
    private final long misfireThresholdMs;
    private final int fireAllMax;
    private final long fireAheadMs;
    private final long holdBackAfterMs;
    private final Clock clock;
    private final StartDueFires startDueFires;

    public FireDueSchedules(
            NamedParameterJdbcTemplate jdbc,
            TransactionTemplate transaction,
            SchedulerCommands commands,
            DatabaseTime databaseTime,
            ObjectMapper json,
            Clock clock,
            StartDueFires startDueFires,
            SchedulerProperties properties) {
        this.jdbc = jdbc;
        this.startDueFires = startDueFires;
        this.transaction = transaction;
        this.commands = commands;
        this.databaseTime = databaseTime;
        this.json = json;
        this.clock = clock;
        this.misfireThresholdMs = properties.schedules().misfireThresholdMs();
        this.fireAllMax = properties.schedules().fireAllMax();
        this.fireAheadMs = properties.schedules().fireAheadMs();
        this.holdBackAfterMs = properties.schedules().holdBackAfterMs();
    }

    /**
     * Schedules due by database time within the look-ahead, oldest first, but none of the {@code held} job types (each
     * in its namespace, {@link HoldBack#key}) and only of {@code only} unless it is null; read without locks, each is
     * locked when fired.
     */
    public List<String> dueScheduleIds(int limit, Set<String> held, String only) {
        return jdbc.queryForList(
                "SELECT schedule_id FROM schedules WHERE " + DUE + notHeld(held) + onlyType(only)
                        + " ORDER BY next_fire_at LIMIT :limit",
                params(Map.of("limit", limit, "ahead", fireAheadMs), held, only),
                String.class);
    }

    /**
     * The earliest fire time (database epoch ms) of an active schedule that is not yet due within the look-ahead, or
     * null when there is none: when the next pass has work. One dive into the due index.
     */
    public Long nextFireAtMs() {
        return jdbc.queryForObject(
                "SELECT MIN(next_fire_at) FROM schedules WHERE state = 'ACTIVE' AND next_fire_at > "
                        + DatabaseTime.NOW_MS + " + :ahead",
                Map.of("ahead", fireAheadMs),
                Long.class);
    }

    /**
     * Jobs of the job type of {@code held} ({@link HoldBack#key}) in its namespace due and waiting to be claimed,
     * counted up to {@value #MAX_WAITING_COUNTED}: a range of the aging index, each row read for its namespace (the
     * index has none). Counted across namespaces, another namespace's waiting jobs of the type, fired freely, kept a
     * paced namespace's budget at nothing. Paced, the type's queue is short (about half of hold-back-after-ms of
     * work). Jobs due later are no backlog: counted, a thousand jobs due in ten minutes kept a paced type's budget at
     * nothing, and its schedules from firing, until they came due and were run. Jobs no worker can take
     * ({@link HoldBack#TAKEN_BY_SOMEONE}) still count: telling them apart reads each row, not the index alone, on every
     * pass of an overloaded node; they only make a type that is late for other reasons fed more slowly.
     */
    public long waiting(String held) {
        Long count = jdbc.queryForObject(
                "SELECT COUNT(*) FROM (SELECT 1 FROM job_queue FORCE INDEX (idx_job_queue_aging) WHERE claimable = 1"
                        + " AND job_type = :type AND run_at <= " + DatabaseTime.NOW_MS + " AND namespace = :namespace"
                        + " LIMIT " + MAX_WAITING_COUNTED + ") waiting",
                Map.of("type", HoldBack.jobTypeOf(held), "namespace", HoldBack.namespaceOf(held)),
                Long.class);
        return count == null ? 0 : count;
    }

    /**
     * Job types, each in a namespace ({@link HoldBack#key}), whose jobs at the head of the type's queue have waited to
     * be claimed longer than {@code hold-back-after-ms}, at most {@value #MAX_TYPES_CHECKED} types looked at: the nodes
     * or workers do not run that namespace's jobs of the type as fast as they fall due, so its schedules there wait
     * instead of adding to a backlog that would grow without bound; another namespace's schedules of the type (its
     * own workers, or the nodes' pools) fire on. Two short index reads per claimable type.
     */
    public Set<String> typesBehind() {
        if (holdBackAfterMs <= 0) return Set.of();
        Set<String> behind = new TreeSet<>();
        String type = "";
        for (int i = 0; i < MAX_TYPES_CHECKED; i++) {
            type = jdbc.queryForObject(HoldBack.NEXT_CLAIMABLE_TYPE, Map.of("after", type), String.class);
            if (type == null) break;
            Set<String> found = new TreeSet<>();
            for (int round = 0; round < MAX_NAMESPACE_ROUNDS; round++) {
                Map<String, Object> p = new HashMap<>(Map.of("after", holdBackAfterMs, "type", type));
                if (!found.isEmpty()) p.put("found", found);
                List<String> more = jdbc.queryForList(HoldBack.namespacesBehind(!found.isEmpty()), p, String.class);
                if (more.isEmpty()) break;
                found.addAll(more);
            }
            for (String namespace : found) behind.add(HoldBack.key(namespace, type));
        }
        return behind;
    }

    /**
     * Which of these {@link HoldBack#key keys} an active schedule makes jobs of. A read of the active schedules'
     * due index (it holds both columns), only when a type is newly held back.
     */
    public Set<String> withActiveSchedules(Set<String> keys) {
        return new TreeSet<>(jdbc.queryForList(
                "SELECT DISTINCT " + HoldBack.SCHEDULE_KEY + " FROM schedules WHERE state = 'ACTIVE' AND "
                        + HoldBack.SCHEDULE_KEY + " IN (:keys)",
                Map.of("keys", keys),
                String.class));
    }

    private static String notHeld(Set<String> held) {
        return held.isEmpty() ? "" : " AND " + HoldBack.SCHEDULE_KEY + " NOT IN (:held)";
    }

    private static String onlyType(String only) {
        return only == null ? "" : " AND job_type = :onlyType AND namespace = :onlyNamespace";
    }

    private static Map<String, Object> params(Map<String, Object> base, Set<String> held, String only) {
        if (held.isEmpty() && only == null) return base;
        Map<String, Object> all = new HashMap<>(base);
        if (!held.isEmpty()) all.put("held", held);
        if (only != null) {
            all.put("onlyType", HoldBack.jobTypeOf(only));
            all.put("onlyNamespace", HoldBack.namespaceOf(only));
        }
        return all;
    }

    /**
     * What one batch did: schedules locked, the jobs they made, and how many of them were not due yet and left to
     * wait (a fire ahead that the overlap policy would not fire now).
     */
    public record Fired(int schedules, int jobs, int deferred) {

        /** A full batch that moved: more may be due behind it. */
        public boolean full(int limit) {
            return schedules >= limit && deferred < schedules;
        }
    }

    /**
     * Fires up to {@code limit} due schedules in one transaction, oldest fire time first: one lock statement, one commit
     * and one unit of work for the lot instead of one each (the fires' and jobs' events are appended in one batch, their
     * read-model rows written in batches), which is what lets a node keep up with thousands of schedules a minute.
     * Rows another node holds are skipped. Any failure rolls the whole batch back and is thrown: the caller then fires
     * the schedules one by one, so one bad schedule costs the others a retry, never their fires.
     */
    public Fired fireDue(int limit, Set<String> held) {
        return fireDue(limit, held, null);
    }

    /** As {@link #fireDue(int, Set)}, and only schedules of {@code only} ({@link HoldBack#key}) unless it is null. */
    public Fired fireDue(int limit, Set<String> held, String only) {
        Fired fired = transaction.execute(tx -> {
            List<Map<String, Object>> rows = lockDue(limit, held, only);
            if (rows.isEmpty()) return new Fired(0, 0, 0);
            long nowMs = databaseTime.nowMs();
            // a held-back type's batch (only) is the backlog's: its jobs wait their turn in the claim scan
            StartDueFires.Starts starts = only == null ? startDueFires.inTransaction(nowMs) : null;
            return OneUnitOfWork.run(() -> {
                int jobs = 0, deferred = 0;
                for (Map<String, Object> row : rows) {
                    int made = fireLocked(row, nowMs, starts);
                    jobs += made;
                    if (made == 0 && ((Number) row.get("next_fire_at")).longValue() > nowMs) deferred++;
                }
                if (starts != null) starts.send();
                return new Fired(rows.size(), jobs, deferred);
            });
        });
        return fired == null ? new Fired(0, 0, 0) : fired;
    }

    /**
     * Locks up to {@code limit} due schedules, oldest fire time first, none of the {@code held} types. With none held,
     * one locking read of the due index. With types held, their due schedules crowd the head of that index and a
     * locking read would lock and read each of them on every pass; the schedules it may fire are found in the index
     * alone (it holds the job type), unlocked, and then locked by key, their state and fire time checked again; so are
     * the schedules of one type ({@code only}, unless null). Rows another node holds are skipped; when those are all
     * it found, the next pass looks again.
     */
    private List<Map<String, Object>> lockDue(int limit, Set<String> held, String only) {
        if (held.isEmpty() && only == null) {
            return jdbc.queryForList(
                    LOCK_COLUMNS + " WHERE " + DUE + " ORDER BY next_fire_at LIMIT :limit FOR UPDATE SKIP LOCKED",
                    Map.of("limit", limit, "ahead", fireAheadMs));
        }
        List<String> ids = dueScheduleIds(limit, held, only);
        if (ids.isEmpty()) return List.of();
        return jdbc.queryForList(
                LOCK_COLUMNS + " WHERE schedule_id IN (:ids) AND " + DUE + notHeld(held) + onlyType(only)
                        + " ORDER BY next_fire_at FOR UPDATE SKIP LOCKED",
                params(Map.of("ids", ids, "ahead", fireAheadMs), held, only));
    }

    /**
     * A job type's last hold in a namespace on this node's scan, from its start to its end (database ms; MAX_VALUE
     * while held).
     */
    private record Hold(long sinceMs, long untilMs) {}

    private final Map<String, Hold> holds = new java.util.concurrent.ConcurrentHashMap<>();

    /** The scan's pass: these job types, each in its namespace, are held back (paced) now, the others are not. */
    public void heldNow(Set<String> types) {
        if (types.isEmpty() && holds.values().stream().noneMatch(h -> h.untilMs() == Long.MAX_VALUE)) return;
        long now = databaseTime.approximateNowMs();
        for (String type : types) {
            // a hold that ended a moment ago and begins again is one hold (the pacing let the head dip below the bound)
            holds.compute(
                    type,
                    (t, h) -> h == null || h.untilMs() < now - holdBackAfterMs
                            ? new Hold(now, Long.MAX_VALUE)
                            : new Hold(h.sinceMs(), Long.MAX_VALUE));
        }
        holds.replaceAll(
                (type, h) -> h.untilMs() == Long.MAX_VALUE && !types.contains(type) ? new Hold(h.sinceMs(), now) : h);
    }

    /** Fires what is due of one schedule; returns the jobs made (0 when another node holds it or it is no longer due). */
    public int fire(String scheduleId) {
        Integer made = transaction.execute(tx -> {
            List<Map<String, Object>> rows = jdbc.queryForList(
                    LOCK_COLUMNS + " WHERE schedule_id = :id AND " + DUE + " FOR UPDATE SKIP LOCKED",
                    Map.of("id", scheduleId, "ahead", fireAheadMs));
            if (rows.isEmpty()) return 0;
            return fireLocked(rows.get(0), databaseTime.nowMs(), null);
        });
        return made == null ? 0 : made;
    }

    /** {@code starts}: where due jobs this node runs are claimed and started with the fire (null: by the claim scan). */
    private int fireLocked(Map<String, Object> row, long nowMs, StartDueFires.Starts starts) {
        String scheduleId = (String) row.get("schedule_id");
        Trigger trigger = read((String) row.get("trigger_json"), Trigger.class);
        Instant anchor = Instant.ofEpochMilli(((Number) row.get("anchor_at")).longValue());
        Instant due = Instant.ofEpochMilli(((Number) row.get("next_fire_at")).longValue());
        Instant queued = row.get("queued_fire_at") == null
                ? null
                : Instant.ofEpochMilli(((Number) row.get("queued_fire_at")).longValue());
        OverlapPolicy overlap = OverlapPolicy.valueOf((String) row.get("overlap_policy"));
        FirePlan plan = PlanFires.plan(
                trigger,
                anchor,
                due,
                Instant.ofEpochMilli(nowMs),
                fireAheadMs,
                MisfirePolicy.valueOf((String) row.get("misfire_policy")),
                misfireThresholdMs,
                fireAllMax);
        // ALLOW fires whatever the last job does: its row is read only when a policy or a held-back fire needs it
        LastJob lastJob =
                overlap == OverlapPolicy.ALLOW && queued == null ? null : lastJob((String) row.get("last_job_id"));
        int made = 0;
        if (queued != null && (lastJob == null || lastJob.ended())) {
            // the held-back fire goes first: it waited longer than the fires due now, which must queue behind it
            String jobId = submit(scheduleId, queued, FireKind.QUEUED, null, starts);
            lastJob = new LastJob(jobId, JobStatus.WAITING, 0, Integer.MAX_VALUE);
            queued = null;
            made++;
        }
        for (int i = 0; i < plan.fires().size(); i++) {
            PlannedFire planned = plan.fires().get(i);
            Instant next = plan.nextAfter(i);
            if (!planned.fires()) {
                commands.sendHoldingRows(new SkipScheduleFire(
                        scheduleId, planned.fireTime(), skipReason(planned, heldKey(row), due), next));
                continue;
            }
            OverlapDecision decision = OverlapDecision.decide(overlap, lastJob, queued);
            if (decision != OverlapDecision.FIRE && planned.fireTime().toEpochMilli() > nowMs) {
                break; // not due yet: decided when it is, and the schedule already waits for this fire time
            }
            switch (decision) {
                case FIRE -> {
                    String jobId = submit(scheduleId, planned.fireTime(), FireKind.SCHEDULED, next, starts);
                    lastJob = new LastJob(jobId, JobStatus.WAITING, 0, Integer.MAX_VALUE);
                    made++;
                }
                case QUEUE -> {
                    commands.sendHoldingRows(
                            new QueueScheduleFire(scheduleId, planned.fireTime(), lastJob.jobId(), next));
                    queued = planned.fireTime();
                }
                case SKIP ->
                    commands.sendHoldingRows(new SkipScheduleFire(
                            scheduleId, planned.fireTime(), OverlapDecision.skipReason(overlap, lastJob), next));
            }
        }
        return made;
    }

    /**
     * The plan's reason for a skip, and when the schedule's job type was already held back as its first missed time
     * came due (and that hold had not ended by then), that this is why the times were missed: the type's jobs were
     * behind, no node was down. A hold is decided once the head of the type's queue has waited {@code
     * hold-back-after-ms}, so a time due up to that long before the decision was already behind that backlog (a fire
     * due just before the pass that held the type, say). A hold that began later than that (the backlog of an outage)
     * says nothing about why it was missed.
     */
    private String skipReason(PlannedFire skip, String held, Instant firstMissed) {
        Hold hold = holds.get(held);
        long missed = firstMissed.toEpochMilli();
        if (hold == null || hold.sinceMs() > missed + holdBackAfterMs || hold.untilMs() < missed)
            return skip.skipReason();
        return skip.skipReason() + " (late because " + HoldBack.describe(held) + " " + HoldBack.SKIP_NOTE
                + ": its jobs there waited to be claimed longer than hold-back-after-ms)";
    }

    /** The schedule row's {@link HoldBack#key} (both columns are NOT NULL). */
    private static String heldKey(Map<String, Object> row) {
        return HoldBack.key((String) row.get("namespace"), (String) row.get("job_type"));
    }

    /** Releases fires held back by overlap policy QUEUE whose job has ended; returns the jobs made. */
    public int releaseQueued(int limit) {
        int made = 0;
        List<String> ids = jdbc.queryForList(
                "SELECT s.schedule_id FROM schedules s LEFT JOIN job_queue j ON j.job_id = s.last_job_id"
                        + " WHERE s.state = 'ACTIVE' AND s.queued_fire_at IS NOT NULL AND (j.job_id IS NULL OR "
                        + LastJob.ENDED_SQL + ")"
                        + " LIMIT :limit",
                Map.of("limit", limit),
                String.class);
        for (String id : ids) {
            Integer one = lostRaceAsNone(
                    id,
                    () -> transaction.execute(tx -> {
                        List<Map<String, Object>> rows = jdbc.queryForList(
                                "SELECT queued_fire_at, last_job_id FROM schedules"
                                        + " WHERE schedule_id = :id AND state = 'ACTIVE' AND queued_fire_at IS NOT NULL FOR UPDATE SKIP LOCKED",
                                Map.of("id", id));
                        if (rows.isEmpty()) return 0;
                        LastJob last = lastJob((String) rows.get(0).get("last_job_id"));
                        if (last != null && !last.ended()) return 0;
                        submit(
                                id,
                                Instant.ofEpochMilli(((Number) rows.get(0).get("queued_fire_at")).longValue()),
                                FireKind.QUEUED,
                                null,
                                null);
                        return 1;
                    }));
            made += one == null ? 0 : one;
        }
        return made;
    }

    /** Fixed-delay schedules whose last job ended get their next fire time: the delay after that end. */
    public int armFixedDelays(int limit) {
        int armed = 0;
        List<String> ids = jdbc.queryForList(
                "SELECT s.schedule_id FROM schedules s JOIN job_queue j ON j.job_id = s.last_job_id"
                        + " WHERE s.state = 'ACTIVE' AND s.trigger_type = 'FIXED_DELAY' AND s.next_fire_at IS NULL AND "
                        + LastJob.ENDED_SQL + " LIMIT :limit",
                Map.of("limit", limit),
                String.class);
        for (String id : ids) {
            Integer one = lostRaceAsNone(
                    id,
                    () -> transaction.execute(tx -> {
                        List<Map<String, Object>> rows = jdbc.queryForList(
                                "SELECT last_job_id FROM schedules WHERE schedule_id = :id"
                                        + " AND state = 'ACTIVE' AND trigger_type = 'FIXED_DELAY' AND next_fire_at IS NULL FOR UPDATE SKIP LOCKED",
                                Map.of("id", id));
                        if (rows.isEmpty()) return 0;
                        String jobId = (String) rows.get(0).get("last_job_id");
                        List<Long> ended = jdbc.queryForList(
                                "SELECT j.updated_at FROM job_queue j WHERE j.job_id = :jobId AND " + LastJob.ENDED_SQL,
                                Map.of("jobId", jobId),
                                Long.class);
                        if (ended.isEmpty()) return 0;
                        commands.sendHoldingRows(new ArmSchedule(id, jobId, Instant.ofEpochMilli(ended.get(0))));
                        return 1;
                    }));
            armed += one == null ? 0 : one;
        }
        return armed;
    }

    /**
     * One schedule's release or arming, where another node's (or this node's fire loop's) append to the schedule
     * first is a lost race, not a failure: that writer moved the schedule on, and the next pass sees it as it is.
     * It used to abort the rest of the pass with a warning.
     */
    private Integer lostRaceAsNone(String scheduleId, Supplier<Integer> work) {
        try {
            return work.get();
        } catch (ConcurrencyException lost) {
            // as WorkerCommands takes it: Axon's exception as the command's send throws it
            log.debug("schedule {} changed under this pass; the next pass sees it: {}", scheduleId, lost.getMessage());
            return 0;
        }
    }

    private String submit(
            String scheduleId, Instant fireTime, FireKind kind, Instant next, StartDueFires.Starts starts) {
        String jobId = TimeOrderedIds.next(clock.millis());
        JobTemplate template = commands.sendHoldingRows(new FireSchedule(scheduleId, fireTime, kind, jobId, next));
        // a fire time whose key is taken fails the transaction as it commits (the key goes in with the batch's
        // others), the fire above with it: such a submit never answers with another job
        SubmitJob submit = template.toSubmitJob(jobId, scheduleId, fireTime, kind);
        commands.submitFailingOnTakenKey(submit);
        if (starts != null) starts.offer(submit);
        log.debug("schedule {} fired {} ({}) as job {}", scheduleId, fireTime, kind, jobId);
        return jobId;
    }

    private LastJob lastJob(String jobId) {
        if (jobId == null) return null;
        List<LastJob> jobs = jdbc.query(
                "SELECT status, attempt, max_retries FROM job_queue WHERE job_id = :id",
                Map.of("id", jobId),
                (rs, i) -> new LastJob(
                        jobId,
                        JobStatus.valueOf(rs.getString("status")),
                        rs.getInt("attempt"),
                        rs.getInt("max_retries")));
        return jobs.isEmpty() ? null : jobs.get(0);
    }

    private <T> T read(String text, Class<T> type) {
        try {
            return json.readValue(text, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("schedules row holds unreadable " + type.getSimpleName(), e);
        }
    }
}
