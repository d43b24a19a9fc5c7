package io.axscheduler.query.explain;

import io.axscheduler.api.Metadata;
import io.axscheduler.api.job.HandBackReason;
import io.axscheduler.api.job.JobCanceled;
import io.axscheduler.api.job.JobClaimed;
import io.axscheduler.api.job.JobCreated;
import io.axscheduler.api.job.JobFailed;
import io.axscheduler.api.job.JobHandedBack;
import io.axscheduler.api.job.JobRetryScheduled;
import io.axscheduler.api.job.JobStarted;
import io.axscheduler.api.job.JobStatus;
import io.axscheduler.api.job.JobSucceeded;
import io.axscheduler.api.job.JobTimedOut;
import io.axscheduler.api.job.TimeoutPhase;
import io.axscheduler.query.history.EventStreams;
import io.axscheduler.query.job.JobStateFold;
import io.axscheduler.query.observe.LivenessProperties;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.axonframework.eventhandling.DomainEventMessage;
import org.springframework.stereotype.Component;

/**
 * Why a job is where it is: its events, read from the event store, say what happened to it; the nodes' and workers'
 * reports say what holds it now (no node scanning, every pool of its type full, no live worker of its app, nothing
 * that runs its type).
 */
@Component
public class ExplainJob {

    /** The worker name of an attempt run in a node's own pools. */
    static final String IN_PROCESS = "in-process";

    private final EventStreams streams;
    private final LiveState live;
    /** The scheduler's bound on a job no one can take ({@code ax.scheduler.remote.no-worker-timeout}). */
    private final Duration noWorkerTimeout;

    public ExplainJob(EventStreams streams, LiveState live, LivenessProperties liveness) {
        this.streams = streams;
        this.live = live;
        this.noWorkerTimeout = liveness.remote().noWorkerTimeout();
    }

    /**
     * When a job no one can take is given up (canceled by the scheduler) if that stays so: {@code no-worker-timeout}
     * after it fell due.
     */
    private Instant givenUpAt(Fold job) {
        return job.runAt.plus(noWorkerTimeout);
    }

    /** {@link #givenUpAt} as the end of a reason's message. */
    private static String givenUpNote(Instant at) {
        return "; given up at " + at + " (no-worker-timeout after it fell due) unless a worker that can take it comes";
    }

    /** The job's events folded to what explaining needs. */
    private static final class Fold {
        JobCreated created;
        JobStatus status = JobStatus.WAITING;
        Instant since;
        Instant runAt;
        int attempt;
        String node;
        String worker;
        Instant leaseUntil;
        Instant startedAt;
        long timeoutMs;
        String lastError;
        String result;
        String actor;
        String cancelReason;
        /** The last claim handed back since the last start, and how many were. */
        JobHandedBack handedBack;
        /** Whether the job's last move was a hand-back: only then is it why the job waits again. */
        boolean lastMoveHandBack;

        int handBacks;

        /** The status comes from {@link JobStatus#after}, the one answer to which event means which status. */
        void apply(Object event, Instant at, Map<String, ?> metadata) {
            JobStatus next = JobStatus.after(event);
            if (next == null) return;
            status = next;
            since = at;
            lastMoveHandBack = event instanceof JobHandedBack;
            if (event instanceof JobCreated e) {
                created = e;
                runAt = e.runAt();
                timeoutMs = e.timeoutMs();
            } else if (event instanceof JobClaimed e) {
                node = e.node();
                leaseUntil = e.leaseUntil();
            } else if (event instanceof JobStarted e) {
                handedBack = null;
                handBacks = 0;
                attempt = e.attempt();
                node = e.node();
                worker = e.worker();
                startedAt = at;
                timeoutMs = e.timeoutMs();
            } else if (event instanceof JobSucceeded e) {
                result = e.result();
            } else if (event instanceof JobFailed e) {
                lastError = e.error();
            } else if (event instanceof JobTimedOut e && e.phase() == TimeoutPhase.RUN) {
                lastError = JobStateFold.runTimeoutError(e);
            } else if (event instanceof JobHandedBack e) {
                handedBack = e;
                handBacks++;
            } else if (event instanceof JobRetryScheduled e) {
                runAt = e.runAt();
            } else if (event instanceof JobCanceled e) {
                cancelReason = e.reason();
                Object by = metadata.get(Metadata.ACTOR);
                actor = by == null ? null : by.toString();
            }
        }
    }

    public JobExplanation explain(String jobId) {
        List<DomainEventMessage<?>> events = streams.read("job", jobId, JobCreated.class);
        Fold job = new Fold();
        for (DomainEventMessage<?> event : events) {
            job.apply(event.getPayload(), event.getTimestamp(), event.getMetaData());
        }
        return new JobExplanation(jobId, job.status.name(), reasons(job));
    }

    private List<Reason> reasons(Fold job) {
        List<Reason> reasons = new ArrayList<>();
        JobCreated c = job.created;
        switch (job.status) {
            case SUCCEEDED ->
                reasons.add(reason(
                        "SUCCEEDED",
                        "attempt " + job.attempt + " succeeded",
                        job.since,
                        "result",
                        job.result,
                        "node",
                        job.node,
                        "worker",
                        job.worker));
            case CANCELED ->
                reasons.add(reason(
                        "CANCELED",
                        "canceled by " + (job.actor == null ? "an unnamed actor" : job.actor)
                                + (job.cancelReason == null ? "" : ": " + job.cancelReason),
                        job.since,
                        "by",
                        job.actor,
                        "reason",
                        job.cancelReason));
            case FAILED, TIMED_OUT -> {
                int maxRetries = c.retryPolicy().maxRetries();
                if (job.attempt > maxRetries) {
                    reasons.add(reason(
                            "RETRIES_EXHAUSTED",
                            (job.attempt <= maxRetries + 1
                                            ? "attempt " + job.attempt + " of " + (maxRetries + 1)
                                            : "attempt " + job.attempt + " (run again by hand; its policy allows "
                                                    + (maxRetries + 1) + ")")
                                    + " ended " + job.status
                                    + "; no retry is left: " + job.lastError,
                            job.since,
                            "lastError",
                            job.lastError,
                            "attempts",
                            job.attempt,
                            "maxRetries",
                            maxRetries));
                } else {
                    reasons.add(reason(
                            job.status.name(),
                            "attempt " + job.attempt + " ended " + job.status + " (" + job.lastError
                                    + "); the retry policy schedules the next attempt",
                            job.since,
                            "lastError",
                            job.lastError,
                            "attempts",
                            job.attempt,
                            "maxRetries",
                            maxRetries));
                }
            }
            case CLAIMED ->
                reasons.add(reason(
                        "CLAIMED",
                        "claimed by node " + job.node + "; it starts the run, or the claim lapses at " + job.leaseUntil,
                        job.since,
                        "node",
                        job.node,
                        "leaseUntil",
                        job.leaseUntil));
            case RUNNING ->
                reasons.add(reason(
                        "RUNNING",
                        "attempt " + job.attempt + " runs on " + where(job) + " since " + job.startedAt
                                + (job.timeoutMs > 0
                                        ? "; it times out at " + job.startedAt.plusMillis(job.timeoutMs)
                                        : ""),
                        job.startedAt,
                        "node",
                        job.node,
                        "worker",
                        job.worker,
                        "attempt",
                        job.attempt,
                        "timeoutAt",
                        job.timeoutMs > 0 ? job.startedAt.plusMillis(job.timeoutMs) : null));
            case WAITING, RETRY_WAITING -> {
                waiting(job, reasons);
                handedBack(job, reasons);
            }
        }
        if (job.status == JobStatus.CLAIMED
                || (job.status == JobStatus.RUNNING && (job.worker == null || IN_PROCESS.equals(job.worker)))) {
            nodeGone(job, reasons);
        } else if (job.status == JobStatus.RUNNING) {
            workerSilent(job, reasons);
        }
        return reasons;
    }

    /**
     * A run on a remote worker that has missed its heartbeats (killed, cut off): once silent for the removal limit it
     * is removed, and its attempts are timed out and retried by their policy.
     */
    private void workerSilent(Fold job, List<Reason> reasons) {
        // a shard broadcast names its workers joined by commas: each is asked
        for (String worker : job.worker.split(",")) {
            Optional<LiveState.Heard> heard = live.heardOf(worker);
            if (heard.isPresent() && heard.get().agoMs() <= live.workerQuietMs()) continue;
            Instant last = heard.map(h -> Instant.ofEpochMilli(h.atMs())).orElse(null);
            reasons.add(reason(
                    "WORKER_SILENT",
                    heard.isEmpty()
                            ? "worker " + worker + " is no longer registered: the attempt is timed out and retried by"
                                    + " its policy"
                            : "worker " + worker + " has missed its heartbeats (last at " + last + "): silent for "
                                    + live.workerSilenceMs() + " ms it is removed, and the attempt timed out and"
                                    + " retried by its policy",
                    last,
                    "worker",
                    worker));
        }
    }

    /**
     * A claim or an in-process run whose node no longer reports: nothing will start or end it there. The claim's lease
     * lapses and another node claims the job; the run is failed when the node starts again under its id, or timed out
     * at its deadline.
     */
    private void nodeGone(Fold job, List<Reason> reasons) {
        LiveState.Snapshot now = live.snapshot();
        if (job.node == null || now.nodes().stream().anyMatch(n -> n.nodeId().equals(job.node))) return;
        Long reported = live.lastReportOf(job.node);
        Instant timeoutAt = job.timeoutMs > 0 && job.startedAt != null ? job.startedAt.plusMillis(job.timeoutMs) : null;
        reasons.add(reason(
                "NODE_GONE",
                "node " + job.node + " no longer reports"
                        + (reported == null ? "" : " (last at " + Instant.ofEpochMilli(reported) + ")")
                        + (job.status == JobStatus.CLAIMED
                                ? ": its claim lapses at " + job.leaseUntil + " and another node claims the job"
                                : ": the attempt is failed when the node starts again under its id, or timed out at "
                                        + timeoutAt + ", and retried by its policy"),
                reported == null ? null : Instant.ofEpochMilli(reported),
                "node",
                job.node,
                "leaseUntil",
                job.status == JobStatus.CLAIMED ? job.leaseUntil : null,
                "timeoutAt",
                job.status == JobStatus.RUNNING ? timeoutAt : null));
    }

    /** A claim given back before it started: the job waits again, no retry used; the state above says why now. */
    private static void handedBack(Fold job, List<Reason> reasons) {
        // a hand-back leads to WAITING; a lapsed claim, cancel or re-run after it is the later word
        if (job.handedBack == null || !job.lastMoveHandBack || job.status != JobStatus.WAITING) return;
        HandBackReason why = job.handedBack.reason();
        reasons.add(reason(
                "HANDED_BACK",
                "the claim of attempt " + job.handedBack.attempt() + " was handed back before it started"
                        + (why == null ? "" : " (" + why.description() + ")")
                        + (job.handBacks > 1 ? ", " + job.handBacks + " times since the last start" : "")
                        + "; it waits again without using a retry",
                job.since, // the hand-back was the last move
                "attempt",
                job.handedBack.attempt(),
                "reason",
                why,
                "times",
                job.handBacks));
    }

    private void waiting(Fold job, List<Reason> reasons) {
        JobCreated c = job.created;
        LiveState.Snapshot now = live.snapshot();
        if (job.runAt.toEpochMilli() > now.nowMs()) {
            if (job.status == JobStatus.RETRY_WAITING) {
                reasons.add(reason(
                        "BACKOFF_UNTIL",
                        "attempt " + job.attempt + " failed (" + job.lastError + "); the next runs at " + job.runAt,
                        job.since,
                        "runAt",
                        job.runAt,
                        "lastError",
                        job.lastError));
            } else {
                reasons.add(reason("WAITING_UNTIL_DUE", "due at " + job.runAt, job.since, "runAt", job.runAt));
            }
        }
        List<LiveState.NodeRow> scanning = now.scanning();
        if (scanning.isEmpty()) {
            reasons.add(reason(
                    "NO_NODE_SCANNING",
                    live.whyNoneScans(now, false) + ": nothing claims it",
                    // since the job has waited: when scanning stopped is in the message, node by node
                    dueAndWaiting(job),
                    "nodes",
                    nodeSummary(now)));
        }
        if (c.executorApp() != null) {
            // a worker runs only jobs of the namespace it registered in: another namespace's workers do not count
            Map<String, LiveState.Worker> workers = live.liveWorkers(c.executorApp(), c.namespace());
            if (workers.isEmpty()) {
                Long heard = live.lastHeardOf(c.executorApp(), c.namespace());
                // none registered under that name at all: a misspelt executorApp reads the same as a stopped app
                List<String> others = heard == null ? live.appsIn(c.namespace()) : List.of();
                String registered = heard != null
                        ? ""
                        : "; no worker of app " + c.executorApp() + " is registered there"
                                + (others.isEmpty()
                                        ? ""
                                        : " (apps registered there now: " + String.join(", ", others)
                                                + "; is executorApp spelt right?)");
                reasons.add(reason(
                        "NO_LIVE_WORKER",
                        "no live worker of app " + c.executorApp() + " in namespace " + c.namespace() + " runs it"
                                + registered + givenUpNote(givenUpAt(job)),
                        heard == null ? dueAndWaiting(job) : Instant.ofEpochMilli(heard),
                        "app",
                        c.executorApp(),
                        "namespace",
                        c.namespace(),
                        "givenUpAt",
                        givenUpAt(job)));
            } else if (workers.values().stream().noneMatch(w -> w.jobTypes().contains(c.jobType()))) {
                reasons.add(reason(
                        "NO_HANDLER",
                        "no live worker of app " + c.executorApp() + " in namespace " + c.namespace()
                                + " registered job type " + c.jobType() + givenUpNote(givenUpAt(job)),
                        null,
                        "app",
                        c.executorApp(),
                        "jobType",
                        c.jobType(),
                        "workers",
                        workers.keySet(),
                        "givenUpAt",
                        givenUpAt(job)));
            } else {
                workersBusy(job, workers, now, reasons, live);
            }
        } else {
            List<LiveState.NodeRow> withPool = now.nodes().stream()
                    .filter(n -> n.pools().containsKey(c.jobType()))
                    .toList();
            Map<String, LiveState.Worker> workers = live.liveWorkers(null, c.namespace());
            boolean remote =
                    workers.values().stream().anyMatch(w -> w.jobTypes().contains(c.jobType()));
            if (withPool.isEmpty() && remote) {
                workersBusy(job, workers, now, reasons, live);
            } else if (withPool.isEmpty()) {
                reasons.add(reason(
                        "NO_HANDLER",
                        "no live node has a handler for job type " + c.jobType() + " and no live worker registered it"
                                + givenUpNote(givenUpAt(job)),
                        job.runAt,
                        "jobType",
                        c.jobType(),
                        "givenUpAt",
                        givenUpAt(job)));
            } else if (!remote || scanning.stream().allMatch(n -> n.pools().containsKey(c.jobType()))) {
                // a job bound to no app goes to workers only from nodes without a pool of its type: with a pool on
                // every scanning node, the workers that registered the type never get it
                List<LiveState.NodeRow> scanningWithPool =
                        withPool.stream().filter(scanning::contains).toList();
                // full pools hold back only a due job: by its time they may have room
                boolean due = job.runAt.toEpochMilli() <= now.nowMs();
                boolean full = due
                        && !scanningWithPool.isEmpty()
                        && scanningWithPool.stream().allMatch(n -> {
                            List<Integer> pool = n.pools().get(c.jobType());
                            return pool.get(1) >= pool.get(0);
                        });
                if (full) {
                    Map<String, Object> pools = new LinkedHashMap<>();
                    scanningWithPool.forEach(n -> pools.put(
                            n.nodeId(),
                            Map.of(
                                    "threads",
                                    n.pools().get(c.jobType()).get(0),
                                    "busy",
                                    n.pools().get(c.jobType()).get(1))));
                    Map<String, Integer> byNamespace = live.inPoolsByNamespace(
                            c.jobType(),
                            scanningWithPool.stream()
                                    .map(LiveState.NodeRow::nodeId)
                                    .toList());
                    // the pools are the type's, shared by every namespace: how many of their jobs are this job's
                    // namespace's and how many others' (counted, not named: the caller may not see the others)
                    int own = byNamespace.getOrDefault(c.namespace(), 0);
                    int others = byNamespace.values().stream()
                                    .mapToInt(Integer::intValue)
                                    .sum()
                            - own;
                    Map<String, Integer> holders = new LinkedHashMap<>();
                    holders.put("thisNamespace", own);
                    holders.put("otherNamespaces", others);
                    String heldBy = "; their slots hold " + own + " job(s) of namespace " + c.namespace() + " and "
                            + others + " of other namespaces";
                    reasons.add(reason(
                            "NO_FREE_SLOT",
                            "every pool of job type " + c.jobType() + " is full on every scanning node" + heldBy,
                            dueAndWaiting(job),
                            "jobType",
                            c.jobType(),
                            "pools",
                            pools,
                            "inPoolsByNamespace",
                            holders));
                }
            }
        }
        if (reasons.isEmpty()) {
            reasons.add(reason(
                    "DUE",
                    "due since " + job.runAt + "; the next scan of a node with room claims it (" + scanning.size()
                            + " node(s) scanning)",
                    job.runAt,
                    "runAt",
                    job.runAt));
        }
    }

    /**
     * A due job only remote workers can take, none of which takes more for now: every live worker that registered its
     * type is cooling down after failing its pushes too often in a row ({@code failures-before-cool-down}), or is
     * running as many jobs as its capacity (or one and the other).
     */
    private static void workersBusy(
            Fold job,
            Map<String, LiveState.Worker> workers,
            LiveState.Snapshot now,
            List<Reason> reasons,
            LiveState live) {
        JobCreated c = job.created;
        if (job.runAt.toEpochMilli() > now.nowMs()) return;
        Map<String, Instant> cooling = new LinkedHashMap<>();
        Map<String, String> pushErrors = new LinkedHashMap<>();
        Map<String, Instant> quiet = new LinkedHashMap<>();
        Map<String, Object> full = new LinkedHashMap<>();
        for (Map.Entry<String, LiveState.Worker> w : workers.entrySet()) {
            LiveState.Worker worker = w.getValue();
            if (!worker.jobTypes().contains(c.jobType())) continue;
            boolean coolingDown = worker.coolingUntil() > now.nowMs();
            if (!coolingDown && !worker.full()) return;
            if (coolingDown) {
                cooling.put(w.getKey(), Instant.ofEpochMilli(worker.coolingUntil()));
                if (worker.lastPushError() != null) pushErrors.put(w.getKey(), worker.lastPushError());
                // missing its heartbeats: what /workers calls SILENT, removed if it stays so
                if (worker.lastHeartbeat() < now.nowMs() - live.workerQuietMs())
                    quiet.put(w.getKey(), Instant.ofEpochMilli(worker.lastHeartbeat()));
            } else full.put(w.getKey(), Map.of("capacity", worker.capacity(), "inFlight", worker.inFlight()));
        }
        if (full.isEmpty() && cooling.isEmpty()) return;
        // a job bound to an app waits for that app's workers only: said, lest its other workers seem to be meant
        String whose = c.executorApp() == null
                ? "every live worker that registered job type " + c.jobType()
                : "every live worker of app " + c.executorApp() + " that registered job type " + c.jobType();
        if (full.isEmpty()) {
            Instant first = java.util.Collections.min(cooling.values());
            // what the pushes met: a node's allow-list or a worker's security filter is not a sick worker
            String met = pushErrors.isEmpty()
                    ? ""
                    : "; worker " + pushErrors.keySet().iterator().next() + "'s last failed push: "
                            + pushErrors.values().iterator().next();
            String silent = quiet.isEmpty()
                    ? ""
                    : "; missing heartbeats too (removed when silent for " + live.workerSilenceMs() / 1000 + " s): "
                            + quiet.entrySet().stream()
                                    .map(e -> e.getKey() + " last heard at " + e.getValue())
                                    .collect(java.util.stream.Collectors.joining(", "));
            reasons.add(reason(
                    "WORKERS_COOLING_DOWN",
                    whose + " failed its pushes too often in a row and gets no new work until its cool-down ends (the"
                            + " first at " + first + ")" + met + silent,
                    dueAndWaiting(job),
                    "jobType",
                    c.jobType(),
                    "coolingUntil",
                    cooling,
                    "lastPushErrors",
                    pushErrors));
            return;
        }
        reasons.add(reason(
                "WORKERS_FULL",
                whose + " runs as many jobs as its capacity"
                        + (cooling.isEmpty() ? "" : " or is cooling down")
                        + "; the job is pushed when one has room",
                dueAndWaiting(job),
                "jobType",
                c.jobType(),
                "workers",
                full,
                "coolingUntil",
                cooling.isEmpty() ? null : cooling));
    }

    /**
     * Since when a due job has waited for room: its due time, or its last move back to waiting when later (a claim
     * handed back, a retry). When the pools or workers filled is not recorded; the job has waited at least this long.
     */
    private static Instant dueAndWaiting(Fold job) {
        return job.since != null && job.since.isAfter(job.runAt) ? job.since : job.runAt;
    }

    private static Map<String, Object> nodeSummary(LiveState.Snapshot now) {
        Map<String, Object> nodes = new LinkedHashMap<>();
        now.nodes()
                .forEach(n -> nodes.put(
                        n.nodeId(),
                        Map.of("scanning", n.scanning(), "lastScanAt", Instant.ofEpochMilli(n.lastScanAt()))));
        return nodes;
    }

    private static String where(Fold job) {
        return job.worker == null || IN_PROCESS.equals(job.worker)
                ? "node " + job.node
                : "worker " + job.worker + " (via node " + job.node + ")";
    }

    /** A reason whose details are the given name/value pairs, nulls left out. */
    static Reason reason(String code, String message, Instant since, Object... details) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i + 1 < details.length; i += 2) {
            if (details[i + 1] != null) map.put((String) details[i], details[i + 1]);
        }
        return new Reason(code, message, since, map);
    }
}
