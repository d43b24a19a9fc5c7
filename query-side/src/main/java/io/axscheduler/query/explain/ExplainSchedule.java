package io.axscheduler.query.explain;

import static io.axscheduler.query.explain.ExplainJob.reason;

import io.axscheduler.api.Metadata;
import io.axscheduler.api.schedule.FireKind;
import io.axscheduler.api.schedule.FireTimes;
import io.axscheduler.api.schedule.HoldBack;
import io.axscheduler.api.schedule.ScheduleCreated;
import io.axscheduler.api.schedule.ScheduleDeleted;
import io.axscheduler.api.schedule.ScheduleFireQueued;
import io.axscheduler.api.schedule.ScheduleFireSkipped;
import io.axscheduler.api.schedule.ScheduleFired;
import io.axscheduler.api.schedule.SchedulePaused;
import io.axscheduler.api.schedule.ScheduleResumed;
import io.axscheduler.api.schedule.ScheduleUpdated;
import io.axscheduler.api.schedule.Trigger;
import io.axscheduler.api.schedule.TriggerType;
import io.axscheduler.query.history.EventStreams;
import io.axscheduler.query.metrics.SkipCause;
import io.axscheduler.query.observe.LivenessProperties;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.axonframework.eventhandling.DomainEventMessage;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Why a schedule did or did not fire at or near an instant. The schedule's events say it: every fire, every skipped
 * fire (with the policy that skipped it, a misfire skip covering the fire times up to the next one it names), every
 * held-back fire, every pause and delete with its actor. Only a fire time the record does not reach yet is judged from
 * the live state: not due yet, or due with no node scanning.
 */
@Component
public class ExplainSchedule {

    /** "Near": a fire time within this of the instant asked about is the fire asked about. */
    static final long NEAR_MS = 1_000;

    /** The first missed fire time, as a misfire skip's reason names it ({@code PlanFires}). */
    private static final Pattern MISSED_SINCE = Pattern.compile("missed since (\\S+?);");

    private final EventStreams streams;
    private final LiveState live;
    private final NamedParameterJdbcTemplate jdbc;
    private final long holdBackAfterMs;

    public ExplainSchedule(
            EventStreams streams, LiveState live, NamedParameterJdbcTemplate jdbc, LivenessProperties liveness) {
        this.holdBackAfterMs = liveness.schedules().holdBackAfterMs();
        this.streams = streams;
        this.live = live;
        this.jdbc = jdbc;
    }

    private record Timed<T>(T event, Instant at, String actor) {}

    /** Events read whole before and after the moment asked about; the rest of the stream is only its configuration. */
    static final int WINDOW_EVENTS = 500;

    /**
     * What the answer about {@code at} reads, in order: the creation; the configuration changes before the window;
     * then every event of the window, from {@link #WINDOW_EVENTS} events before the last one recorded at or before
     * {@code at} to as many after it. Fire records lie in their fire times' order, so the fires near {@code at}, the
     * one before it, a later skip covering it and the next few are all in the window, and a schedule that fires every
     * second for a month is not read whole for one answer.
     */
    private Around eventsAround(String scheduleId, Instant at) {
        List<DomainEventMessage<?>> events =
                new ArrayList<>(streams.readPage("schedule", scheduleId, ScheduleCreated.class, 0, 1));
        long last = streams.lastSequenceAtOrBefore(scheduleId, at);
        Long oldest = last <= 0 ? null : streams.oldestOfNewest(scheduleId, last, WINDOW_EVENTS);
        long from = oldest == null ? 1 : Math.max(1, oldest);
        if (from > 1) events.addAll(streams.readOfTypes(scheduleId, EventStreams.SCHEDULE_CONFIGURATION, from));
        // at most WINDOW_EVENTS from the window's start to the last one at or before at, then as many after it
        List<DomainEventMessage<?>> window = new ArrayList<>(
                streams.readPage("schedule", scheduleId, ScheduleCreated.class, from, 2 * WINDOW_EVENTS));
        // and on, a page at a time, while the record about at may still come: FIRE_ALL's catch-up fires are all
        // recorded when the scan comes back, and a fire held by overlap policy QUEUE is recorded when its job ends,
        // after the skips of the fire times meanwhile
        for (int page = 0; page < MAX_PAGES_AFTER && mayComeLater(window, at); page++) {
            long next = window.isEmpty() ? from : window.get(window.size() - 1).getSequenceNumber() + 1;
            List<DomainEventMessage<?>> more =
                    streams.readPage("schedule", scheduleId, ScheduleCreated.class, next, WINDOW_EVENTS);
            if (more.isEmpty()) break;
            window.addAll(more);
        }
        events.addAll(window);
        return new Around(events, from);
    }

    /** The events read for one answer, and the first sequence number of the part read whole (the window). */
    private record Around(List<DomainEventMessage<?>> events, long windowFrom) {}

    /** Pages read on after the window at most: FIRE_ALL fires up to 10,000 missed times at once. */
    static final int MAX_PAGES_AFTER = 40;

    /**
     * Whether the record of the fire near {@code at} may lie after these events: none of them is of a fire time
     * past it yet, or a fire near it held by overlap policy QUEUE has not been fired (nor the schedule deleted).
     */
    private static boolean mayComeLater(List<DomainEventMessage<?>> events, Instant at) {
        Instant limit = at.plusMillis(NEAR_MS);
        boolean past = false;
        List<Instant> held = new ArrayList<>();
        for (DomainEventMessage<?> message : events) {
            Object e = message.getPayload();
            Instant fireTime = e instanceof ScheduleFired f
                    ? f.fireTime()
                    : e instanceof ScheduleFireSkipped s
                            ? s.fireTime()
                            : e instanceof ScheduleFireQueued q ? q.fireTime() : null;
            if (fireTime != null && fireTime.isAfter(limit)) past = true;
            if (e instanceof ScheduleFireQueued q && !q.fireTime().isAfter(limit)) held.add(q.fireTime());
            if (e instanceof ScheduleFired f && f.kind() == FireKind.QUEUED) held.remove(f.fireTime());
            if (e instanceof ScheduleDeleted) held.clear();
        }
        return !past || !held.isEmpty();
    }

    private record Pause(Instant from, Instant until, String actor) {
        boolean covers(Instant t) {
            return !t.isBefore(from) && (until == null || t.isBefore(until));
        }
    }

    public ScheduleExplanation explain(String scheduleId, Instant asked) {
        // the API's instants have milliseconds; the clock's now may have nanoseconds, which the messages would print
        Instant at = asked.truncatedTo(ChronoUnit.MILLIS);
        Around around = eventsAround(scheduleId, at);
        List<DomainEventMessage<?>> events = around.events();
        Instant createdAt = events.get(0).getTimestamp();
        ScheduleCreated created = (ScheduleCreated) events.get(0).getPayload();
        Trigger trigger = created.trigger();
        Instant anchor = created.anchor();
        List<Timed<ScheduleFired>> fired = new ArrayList<>();
        List<Timed<ScheduleFireSkipped>> skipped = new ArrayList<>();
        List<Timed<ScheduleFireQueued>> queued = new ArrayList<>();
        List<Pause> pauses = new ArrayList<>();
        Timed<ScheduleDeleted> deleted = null;
        // the record is whole from here on: the retention deleted fire records before it (a gap in the sequence)
        Instant wholeFrom = null;
        long sequence = -1;
        for (DomainEventMessage<?> message : events) {
            Object e = message.getPayload();
            Instant t = message.getTimestamp();
            // a gap in the sequence numbers read whole (the window): the retention deleted the records in it
            if (message.getSequenceNumber() > around.windowFrom() && message.getSequenceNumber() != sequence + 1)
                wholeFrom = t;
            sequence = message.getSequenceNumber();
            Object by = message.getMetaData().get(Metadata.ACTOR);
            String actor = by == null ? null : by.toString();
            if (e instanceof ScheduleUpdated u && !t.isAfter(at)) {
                trigger = u.trigger();
                anchor = u.anchor();
            } else if (e instanceof ScheduleFired f) {
                fired.add(new Timed<>(f, t, actor));
            } else if (e instanceof ScheduleFireSkipped s) {
                skipped.add(new Timed<>(s, t, actor));
            } else if (e instanceof ScheduleFireQueued q) {
                queued.add(new Timed<>(q, t, actor));
            } else if (e instanceof SchedulePaused) {
                pauses.add(new Pause(t, null, actor));
            } else if (e instanceof ScheduleResumed || e instanceof ScheduleDeleted) {
                if (!pauses.isEmpty() && pauses.get(pauses.size() - 1).until() == null) {
                    Pause open = pauses.remove(pauses.size() - 1);
                    pauses.add(new Pause(open.from(), t, open.actor()));
                }
                if (e instanceof ScheduleDeleted d) deleted = new Timed<>(d, t, actor);
            }
        }

        if (at.isBefore(createdAt)) {
            return answer(
                    scheduleId,
                    at,
                    null,
                    reason(
                            "NOT_CREATED_YET",
                            "the schedule was created at " + createdAt + ", after " + at,
                            createdAt,
                            "createdAt",
                            createdAt));
        }
        if (deleted != null && !deleted.at().isAfter(at)) {
            return answer(
                    scheduleId,
                    at,
                    null,
                    reason(
                            "DELETED",
                            "deleted by " + actorName(deleted.actor()) + " at " + deleted.at(),
                            deleted.at(),
                            "by",
                            deleted.actor()));
        }

        Instant fireTime = nearestFireTime(trigger, anchor, at, fired, skipped, queued);
        if (fireTime == null) {
            // asked between fire times while a fire is due and not made (held back, no node scanning): that fire is
            // the answer, not the fire times after it
            fireTime = duePending(scheduleId, at);
        }
        if (fireTime == null
                && wholeFrom != null
                && at.isBefore(wholeFrom)
                && (trigger.type() == TriggerType.FIXED_DELAY || trigger.type() == TriggerType.ONCE)) {
            // a fixed delay's or a once schedule's fire times are only in its records
            return new ScheduleExplanation(scheduleId, at, null, List.of(pastRetention(wholeFrom)));
        }
        if (fireTime == null) {
            // a fixed delay's times follow its jobs' ends: only its records and its pending time say them
            List<Instant> next = trigger.type() == TriggerType.FIXED_DELAY
                    ? nextKnown(scheduleId, at, fired, skipped, queued)
                    : FireTimes.preview(trigger, anchor, at, 3);
            Instant previous = previousRecorded(at, fired, skipped);
            // asked about a moment of a pause (the console asks about now): the pause first, as for a fire time
            Optional<Reason> paused = pausedAt(pauses, at);
            List<Reason> reasons = new ArrayList<>();
            paused.ifPresent(reasons::add);
            reasons.add(reason(
                    "NOT_A_FIRE_TIME",
                    "no fire time within " + NEAR_MS + " ms of " + at
                            + (next.isEmpty() && trigger.type() != TriggerType.FIXED_DELAY
                                    ? "; none is left after it: the schedule fires no more by itself"
                                    : "; the next are " + next
                                            + (paused.isPresent() ? " (none fires while the schedule is paused)" : "")),
                    null,
                    "nextFireTimes",
                    next,
                    "previousFireTime",
                    previous));
            return new ScheduleExplanation(scheduleId, at, null, reasons);
        }

        List<Reason> reasons = new ArrayList<>();
        pausedAt(pauses, fireTime).ifPresent(reasons::add);
        Instant f = fireTime;
        Optional<Timed<ScheduleFired>> fire =
                fired.stream().filter(x -> x.event().fireTime().equals(f)).findFirst();
        Optional<Timed<ScheduleFireQueued>> held =
                queued.stream().filter(x -> x.event().fireTime().equals(f)).findFirst();
        Optional<Timed<ScheduleFireSkipped>> skip =
                skipped.stream().filter(x -> covers(x.event(), f)).findFirst();
        if (fire.isPresent()) {
            ScheduleFired e = fire.get().event();
            String status = jobStatus(e.jobId());
            // a job with neither a row nor events was deleted past the retention of ended jobs
            boolean jobGone = status == null && streams.sequenceAt(e.jobId(), 0) == null;
            long lateMs = Math.max(0, fire.get().at().toEpochMilli() - f.toEpochMilli());
            // late because the scan found it missed: FIRE_ONCE's catch-up, whose skip names it as the first missed
            String catchUpOf = lateMs <= NEAR_MS
                    ? null
                    : skipped.stream()
                            .map(Timed::event)
                            .filter(s -> SkipCause.of(s.reason()) != SkipCause.OVERLAP
                                    && missedSince(s).filter(f::equals).isPresent())
                            .map(ScheduleFireSkipped::reason)
                            .findFirst()
                            .orElse(null);
            reasons.add(reason(
                    "FIRED",
                    "fired" + (e.kind() == FireKind.QUEUED ? " after being held back by overlap policy QUEUE" : "")
                            + " as job " + e.jobId()
                            + (status != null
                                    ? " (" + status + ")"
                                    : jobGone ? " (deleted since: neither the job nor its history is kept)" : "")
                            + (lateMs > NEAR_MS ? ", " + late(lateMs) + " after its time" : "")
                            + (catchUpOf == null ? "" : ", as the catch-up fire of its misfire policy: " + catchUpOf),
                    fire.get().at(),
                    "jobId",
                    e.jobId(),
                    "jobStatus",
                    status,
                    "jobDeleted",
                    jobGone ? Boolean.TRUE : null,
                    "kind",
                    e.kind(),
                    "lateMs",
                    lateMs,
                    "catchUpOf",
                    catchUpOf));
        } else if (held.isPresent()) {
            ScheduleFireQueued e = held.get().event();
            // deleted after the asked instant (before it, the answer is DELETED), and before the held fire was made
            Timed<ScheduleDeleted> dropped = deleted;
            reasons.add(reason(
                    "QUEUED",
                    "held back by overlap policy QUEUE until job " + e.waitingForJobId() + " ends"
                            + (dropped == null
                                    ? ""
                                    : "; the schedule was deleted by " + actorName(dropped.actor()) + " at "
                                            + dropped.at() + " before it was made, so it never fired"),
                    held.get().at(),
                    "waitingForJobId",
                    e.waitingForJobId(),
                    "deletedAt",
                    dropped == null ? null : dropped.at()));
        } else if (skip.isPresent()) {
            ScheduleFireSkipped e = skip.get().event();
            boolean overlap = SkipCause.of(e.reason()) == SkipCause.OVERLAP;
            String catchUp = overlap ? null : catchUpSkipped(e, skipped);
            reasons.add(reason(
                    overlap ? "SKIPPED_OVERLAP" : "SKIPPED_MISFIRE",
                    e.reason() + (catchUp == null ? "" : "; that catch-up fire was itself skipped, " + catchUp),
                    skip.get().at(),
                    "reason",
                    e.reason(),
                    "firstSkipped",
                    e.fireTime(),
                    "nextFireTime",
                    e.nextFireTime(),
                    // a misfire's downtime: from the first missed fire time to the scan that saw it (none when the
                    // fires were late because their job type was held back, which the reason says, or because the
                    // schedule was paused: no node was down)
                    "downtimeMs",
                    overlap
                                    || HoldBack.causedSkip(e.reason())
                                    || pausedAt(pauses, e.fireTime()).isPresent()
                            ? null
                            : skip.get().at().toEpochMilli() - firstMissed(e).toEpochMilli(),
                    "runningJobId",
                    overlap ? runningJob(e.reason()) : null,
                    "catchUpSkipped",
                    catchUp));
        } else if (reasons.isEmpty() && wholeFrom != null && f.isBefore(wholeFrom)) {
            reasons.add(pastRetention(wholeFrom));
        } else if (reasons.isEmpty()) {
            notYetRecorded(scheduleId, f, reasons);
        }
        return new ScheduleExplanation(scheduleId, at, fireTime, reasons);
    }

    /**
     * Whether the schedule scan holds this schedule back: the jobs at the head of its type's queue (in due order) have
     * waited to be claimed beyond the bound ({@link HoldBack}, the question the scheduler side asks before firing), or
     * a live node reports the type held back (paced: its head then waits less than the bound).
     */
    private boolean heldBack(String scheduleId, LiveState.Snapshot now) {
        if (holdBackAfterMs <= 0) return false;
        List<Map<String, Object>> rows = jdbc.queryForList(
                "SELECT job_type, namespace FROM schedules WHERE schedule_id = :id", Map.of("id", scheduleId));
        if (rows.isEmpty()) return false;
        String type = (String) rows.get(0).get("job_type");
        String namespace = (String) rows.get(0).get("namespace");
        String key = HoldBack.key(namespace, type);
        if (now.nodes().stream().anyMatch(n -> n.heldBack().contains(key))) return true;
        return Boolean.TRUE.equals(jdbc.queryForObject(
                HoldBack.NAMESPACE_BEHIND,
                Map.of("after", holdBackAfterMs, "type", type, "namespace", namespace),
                Boolean.class));
    }

    /** The schedule's next fire time when it is due at {@code at} and now but not made yet; else null. */
    private Instant duePending(String scheduleId, Instant at) {
        List<Long> next = jdbc.queryForList(
                "SELECT next_fire_at FROM schedules WHERE schedule_id = :id AND state = 'ACTIVE'",
                Map.of("id", scheduleId),
                Long.class);
        if (next.isEmpty() || next.get(0) == null) return null;
        long due = next.get(0);
        return due <= at.toEpochMilli() && due <= live.snapshot().nowMs() ? Instant.ofEpochMilli(due) : null;
    }

    /** A fire time the record does not reach: not due yet, or due and not fired (no node scanning, or about to). */
    private void notYetRecorded(String scheduleId, Instant fireTime, List<Reason> reasons) {
        LiveState.Snapshot now = live.snapshot();
        if (fireTime.toEpochMilli() > now.nowMs()) {
            reasons.add(reason("WAITING_UNTIL_DUE", "fires at " + fireTime, null, "fireTime", fireTime));
            return;
        }
        List<Long> next = jdbc.queryForList(
                "SELECT next_fire_at FROM schedules WHERE schedule_id = :id", Map.of("id", scheduleId), Long.class);
        boolean pending = !next.isEmpty() && next.get(0) != null && next.get(0) <= fireTime.toEpochMilli();
        // the first fire time not made: the schedule has been stuck since then, not only since the one asked about
        Instant stuckSince = pending ? Instant.ofEpochMilli(next.get(0)) : fireTime;
        String due = stuckSince.isBefore(fireTime)
                ? "due at " + fireTime + ", as every fire time since " + stuckSince + ","
                : "due at " + fireTime;
        if (pending && now.scanningSchedules().isEmpty()) {
            reasons.add(reason(
                    "NO_NODE_SCANNING",
                    due + " and not fired: " + live.whyNoneScans(now, true),
                    stuckSince,
                    "liveNodes",
                    now.nodes().stream().map(LiveState.NodeRow::nodeId).toList()));
        } else if (pending && heldBack(scheduleId, now)) {
            reasons.add(reason(
                    "HELD_BACK",
                    due + " and held back: jobs of its type in its namespace have waited to be claimed"
                            + " for more than "
                            + holdBackAfterMs
                            + " ms (ax.scheduler.schedules.hold-back-after-ms); its type's schedules fire"
                            + " only as fast as those jobs are claimed until they catch up, as its misfire policy says",
                    stuckSince,
                    "holdBackAfterMs",
                    holdBackAfterMs));
        } else if (pending) {
            reasons.add(reason(
                    "DUE", "due at " + fireTime + "; the next schedule scan fires it", fireTime, "fireTime", fireTime));
        } else {
            reasons.add(reason(
                    "NOT_A_FIRE_TIME",
                    "the record holds no fire at " + fireTime + " and the schedule has moved past it",
                    null,
                    "nextFireTime",
                    next.isEmpty() || next.get(0) == null ? null : Instant.ofEpochMilli(next.get(0))));
        }
    }

    private static Reason pastRetention(Instant wholeFrom) {
        return reason(
                "PAST_RETENTION",
                "the schedule's records of its fires before " + wholeFrom
                        + " were deleted past their retention (ax.scheduler.retention.finished-jobs)",
                null,
                "recordsFrom",
                wholeFrom);
    }

    /**
     * The fire time within {@link #NEAR_MS} of {@code at} closest to it, recorded or the trigger's (a recorded one on
     * a tie: a time of a trigger since changed is still recorded); null if none. Closest, not first: in a range a skip
     * covers, only the skip's first time is recorded, and a time beside the one asked about must not stand for it.
     */
    private static Instant nearestFireTime(
            Trigger trigger,
            Instant anchor,
            Instant at,
            List<Timed<ScheduleFired>> fired,
            List<Timed<ScheduleFireSkipped>> skipped,
            List<Timed<ScheduleFireQueued>> queued) {
        List<Instant> recorded = new ArrayList<>();
        fired.forEach(x -> recorded.add(x.event().fireTime()));
        skipped.forEach(x -> recorded.add(x.event().fireTime()));
        queued.forEach(x -> recorded.add(x.event().fireTime()));
        Optional<Instant> near = recorded.stream()
                .filter(t -> distance(t, at) <= NEAR_MS)
                .min(Comparator.comparingLong(t -> distance(t, at)));
        Instant closest = near.orElse(null);
        Instant from = at.minusMillis(NEAR_MS + 1);
        // a trigger time counts when strictly closer; at most 2 * NEAR_MS + 1 of them, one a millisecond
        for (int i = 0; i <= 2 * NEAR_MS; i++) {
            Optional<Instant> next = FireTimes.next(trigger, anchor, from);
            if (next.isEmpty() || next.get().toEpochMilli() > at.toEpochMilli() + NEAR_MS) break;
            if (closest == null || distance(next.get(), at) < distance(closest, at)) closest = next.get();
            from = next.get();
        }
        if (closest != null) return closest;
        // a cron time that a daylight-saving gap skips fires at the gap's end, but only when counted from before
        // the gap (as the schedule counts, from its previous fire): count from before any gap too
        from = at.minus(DST_REACH);
        for (int i = 0; i < DST_STEPS; i++) {
            Optional<Instant> n = FireTimes.next(trigger, anchor, from);
            if (n.isEmpty() || n.get().toEpochMilli() > at.toEpochMilli() + NEAR_MS) return null;
            if (Math.abs(n.get().toEpochMilli() - at.toEpochMilli()) <= NEAR_MS) return n.get();
            from = n.get();
        }
        return null;
    }

    private static long distance(Instant t, Instant at) {
        return Math.abs(t.toEpochMilli() - at.toEpochMilli());
    }

    /** How far before an instant a daylight-saving gap that moved a fire onto it can begin: the largest gap is 1 h. */
    private static final java.time.Duration DST_REACH = java.time.Duration.ofHours(2);
    /** At most this many fire times are stepped through from there (a schedule firing every second has 7,200). */
    private static final int DST_STEPS = 8_000;

    /**
     * The first fire time a misfire skip's reason names as missed ({@code missed since <instant>}, as
     * {@code PlanFires} writes it); empty when it names none.
     */
    private static Optional<Instant> missedSince(ScheduleFireSkipped skip) {
        Matcher since = MISSED_SINCE.matcher(skip.reason());
        if (!since.find()) return Optional.empty();
        try {
            return Optional.of(Instant.parse(since.group(1)));
        } catch (java.time.format.DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /**
     * Where a misfire's downtime starts: the first missed time, which FIRE_ONCE fired (its skip starts at the next
     * one); the skip's own fire time when the reason names none (or a later one).
     */
    private static Instant firstMissed(ScheduleFireSkipped skip) {
        return missedSince(skip)
                .filter(first -> !first.isAfter(skip.fireTime()))
                .orElse(skip.fireTime());
    }

    /**
     * FIRE_ONCE's skip says the first missed time fired; that catch-up fire met the overlap policy after the plan was
     * made, and when the policy skipped it too, the answer says so (null otherwise).
     */
    private static String catchUpSkipped(ScheduleFireSkipped skip, List<Timed<ScheduleFireSkipped>> skipped) {
        if (!skip.reason().contains("misfire policy FIRE_ONCE")) return null;
        // the catch-up fire's own skip is recorded at its time: a skip that merely covers it is another's
        return missedSince(skip)
                .flatMap(first -> skipped.stream()
                        .filter(x -> SkipCause.of(x.event().reason()) == SkipCause.OVERLAP
                                && x.event().fireTime().equals(first))
                        .findFirst()
                        .map(x -> "at " + first + ": " + x.event().reason()))
                .orElse(null);
    }

    /** A skip covers its own fire time and, up to (not including) the next fire time it names, those it skipped. */
    private static boolean covers(ScheduleFireSkipped skip, Instant fireTime) {
        if (skip.fireTime().equals(fireTime)) return true;
        return skip.nextFireTime() != null
                && fireTime.isAfter(skip.fireTime())
                && fireTime.isBefore(skip.nextFireTime());
    }

    private static Instant previousRecorded(
            Instant at, List<Timed<ScheduleFired>> fired, List<Timed<ScheduleFireSkipped>> skipped) {
        List<Instant> before = new ArrayList<>();
        fired.forEach(x -> before.add(x.event().fireTime()));
        skipped.forEach(x -> before.add(x.event().fireTime()));
        return before.stream()
                .filter(t -> t.isBefore(at))
                .max(Comparator.naturalOrder())
                .orElse(null);
    }

    /**
     * A fixed delay's next three fire times after {@code at} as far as they are known: those recorded, then the one
     * the schedule waits for now.
     */
    private List<Instant> nextKnown(
            String scheduleId,
            Instant at,
            List<Timed<ScheduleFired>> fired,
            List<Timed<ScheduleFireSkipped>> skipped,
            List<Timed<ScheduleFireQueued>> queued) {
        TreeSet<Instant> after = new TreeSet<>();
        fired.forEach(x -> after.add(x.event().fireTime()));
        skipped.forEach(x -> after.add(x.event().fireTime()));
        queued.forEach(x -> after.add(x.event().fireTime()));
        jdbc.queryForList(
                        "SELECT next_fire_at FROM schedules WHERE schedule_id = :id AND state = 'ACTIVE'"
                                + " AND next_fire_at IS NOT NULL",
                        Map.of("id", scheduleId),
                        Long.class)
                .forEach(ms -> after.add(Instant.ofEpochMilli(ms)));
        return after.tailSet(at, false).stream().limit(3).toList();
    }

    /** A lateness as a person says it: "850 ms", "12.4 s", "6 min 23.7 s", "2 h 5 min". */
    static String late(long ms) {
        if (ms < 1_000) return ms + " ms";
        long tenths = Math.round(ms / 100.0); // rounded first, so that no "60.0 s" comes out
        if (tenths < 600) return tenths / 10 + "." + tenths % 10 + " s";
        if (tenths < 36_000) return tenths / 600 + " min " + tenths % 600 / 10 + "." + tenths % 10 + " s";
        long minutes = Math.round(ms / 60_000.0);
        return minutes / 60 + " h " + minutes % 60 + " min";
    }

    private String jobStatus(String jobId) {
        List<String> status =
                jdbc.queryForList("SELECT status FROM job_queue WHERE job_id = :id", Map.of("id", jobId), String.class);
        return status.isEmpty() ? null : status.get(0);
    }

    /** The job an overlap skip names ("previous job X is still RUNNING" / "queued behind job X"). */
    private static String runningJob(String reason) {
        int i = reason.indexOf("job ");
        if (i < 0) return null;
        int end = reason.indexOf(' ', i + 4);
        return reason.substring(i + 4, end < 0 ? reason.length() : end);
    }

    private static String actorName(String actor) {
        return actor == null ? "an unnamed actor" : actor;
    }

    /** The pause that covers {@code t}, as a reason. */
    private static Optional<Reason> pausedAt(List<Pause> pauses, Instant t) {
        return pauses.stream()
                .filter(p -> p.covers(t))
                .findFirst()
                .map(p -> reason(
                        "PAUSED",
                        "paused by " + actorName(p.actor()) + " from " + p.from()
                                + (p.until() == null ? "" : " until " + p.until()),
                        p.from(),
                        "by",
                        p.actor(),
                        "until",
                        p.until()));
    }

    private static ScheduleExplanation answer(String scheduleId, Instant at, Instant fireTime, Reason reason) {
        return new ScheduleExplanation(scheduleId, at, fireTime, List.of(reason));
    }
}
