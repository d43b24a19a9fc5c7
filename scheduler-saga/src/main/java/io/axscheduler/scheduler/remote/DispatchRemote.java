package io.axscheduler.scheduler.remote;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.job.FailJob;
import io.axscheduler.api.job.HandBackJob;
import io.axscheduler.api.job.HandBackReason;
import io.axscheduler.api.job.RouteStrategy;
import io.axscheduler.api.security.Caller;
import io.axscheduler.api.worker.JobCallback;
import io.axscheduler.api.worker.PushedJob;
import io.axscheduler.scheduler.ClaimedJob;
import io.axscheduler.scheduler.NodeMetrics;
import io.axscheduler.scheduler.SchedulerCommands;
import io.axscheduler.scheduler.remote.route.Candidate;
import io.axscheduler.scheduler.remote.route.RouteRequest;
import io.axscheduler.scheduler.remote.route.WorkerRoutes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Pushes claimed jobs to workers, on a small bounded pool of its own so a hanging worker holds a push thread, never
 * the scan thread. The route orders the available workers; a push that fails goes to the next, one that fails
 * everywhere hands the claim back. An accepted push starts the attempt (JobStarted names the worker); the outcome
 * comes later as a callback. A retry prefers workers that did not run the job before.
 */
@Component
public class DispatchRemote {

    private static final Logger log = LoggerFactory.getLogger(DispatchRemote.class);
    static final int QUEUE = 4096;

    private final WorkerRegistry registry;
    private final WorkerDispatches dispatches;
    private final PushToWorker pushes;
    private final WorkerCommands commands;
    private final SchedulerCommands schedulerCommands;
    private final RemoteLanes lanes;
    private final ObjectMapper json;
    private final WorkerRoutes routes = new WorkerRoutes();
    private final ThreadPoolExecutor pool;
    private final NodeMetrics metrics;
    private final StopRemoteRuns stops;
    private final String node;

    public DispatchRemote(
            WorkerRegistry registry,
            WorkerDispatches dispatches,
            PushToWorker pushes,
            WorkerCommands commands,
            SchedulerCommands schedulerCommands,
            RemoteLanes lanes,
            ObjectMapper json,
            WorkerProperties properties,
            NodeMetrics metrics,
            StopRemoteRuns stops,
            io.axscheduler.scheduler.NodeProperties node) {
        this.node = node.id();
        this.stops = stops;
        this.registry = registry;
        this.metrics = metrics;
        this.dispatches = dispatches;
        this.pushes = pushes;
        this.commands = commands;
        this.schedulerCommands = schedulerCommands;
        this.lanes = lanes;
        this.json = json;
        AtomicInteger n = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(
                properties.pushThreads(),
                properties.pushThreads(),
                60,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(QUEUE),
                r -> {
                    Thread t = new Thread(r, "ax-push-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        pool.allowCoreThreadTimeOut(true);
    }

    public void dispatch(ClaimedJob job) {
        lanes.pushStarted(job.jobType(), job.executorApp(), job.namespace());
        try {
            pool.execute(() -> {
                try {
                    push(job);
                } catch (RuntimeException e) {
                    log.error(
                            "push of job {} attempt {} failed; its claim lease will hand it back",
                            job.jobId(),
                            job.attempt(),
                            e);
                } finally {
                    lanes.pushEnded(job.jobType(), job.executorApp(), job.namespace());
                }
            });
        } catch (RejectedExecutionException e) {
            lanes.pushEnded(job.jobType(), job.executorApp(), job.namespace());
            release(job, HandBackReason.NODE_BUSY);
        }
    }

    public void shutdown() {
        pool.shutdown();
    }

    private void push(ClaimedJob job) {
        // a worker registered in another namespace never gets the job, even when the lane read was stale
        List<Candidate> workers = registry.available().stream()
                .filter(w -> w.namespace().equals(job.namespace()))
                .filter(w -> job.executorApp() == null || w.app().equals(job.executorApp()))
                .map(WorkerRegistry.Registered::candidate)
                .filter(c -> c.jobTypes().contains(job.jobType()))
                .toList();
        if (workers.isEmpty()) {
            release(job, HandBackReason.NO_WORKER);
            return;
        }
        RouteStrategy strategy =
                job.routeStrategy() == null ? RouteStrategy.ROUND_ROBIN : RouteStrategy.valueOf(job.routeStrategy());
        RouteRequest request = new RouteRequest(
                RemoteLanes.key(job.jobType(), job.executorApp(), job.namespace()),
                job.jobKey() != null ? job.jobKey() : job.jobId());
        List<Candidate> order = routes.of(strategy).order(workers, request);
        if (strategy == RouteStrategy.SHARDING_BROADCAST) {
            broadcast(job, order);
        } else {
            single(
                    job,
                    preferOthers(
                            order,
                            job.attempt() > 1 ? dispatches.workersThatRan(job.jobId(), job.attempt()) : Set.of()));
        }
    }

    private void single(ClaimedJob job, List<Candidate> order) {
        PushedJob pushed = pushed(job, 0, 1);
        for (Candidate worker : order) {
            if (tryPush(worker, pushed, job.executorApp())) {
                commands.start(job.jobId(), job.attempt(), worker.workerId());
                return;
            }
        }
        dispatches.forget(job.jobId(), job.attempt());
        release(job, HandBackReason.NO_WORKER_TOOK_IT);
    }

    /**
     * Shard i goes to worker i; a shard whose worker fails goes to the next worker that answers (which then runs two).
     * A shard no worker takes fails the attempt, so the retry policy re-runs the whole broadcast.
     */
    private void broadcast(ClaimedJob job, List<Candidate> order) {
        int total = order.size();
        List<String> takenBy = new ArrayList<>();
        Map<Integer, String> untaken = new java.util.LinkedHashMap<>();
        for (int shard = 0; shard < total; shard++) {
            PushedJob pushed = pushed(job, shard, total);
            String taker = null;
            String lastTried = null;
            for (int i = 0; i < total && taker == null; i++) {
                Candidate worker = order.get((shard + i) % total);
                lastTried = worker.workerId();
                if (tryPush(worker, pushed, job.executorApp())) taker = worker.workerId();
            }
            if (taker == null) untaken.put(shard, lastTried);
            else if (!takenBy.contains(taker)) takenBy.add(taker);
        }
        if (takenBy.isEmpty()) {
            dispatches.forget(job.jobId(), job.attempt());
            release(job, HandBackReason.NO_WORKER_TOOK_IT);
            return;
        }
        String workers = String.join(",", takenBy);
        commands.start(job.jobId(), job.attempt(), workers);
        for (Map.Entry<Integer, String> shard : untaken.entrySet()) {
            // the shard's row names the worker tried last: recorded as that worker's failure
            WorkerDispatches.Applied applied = dispatches.record(new JobCallback(
                    shard.getValue(),
                    job.jobId(),
                    job.attempt(),
                    shard.getKey(),
                    false,
                    null,
                    "no worker took shard " + shard.getKey() + " of " + total,
                    0));
            if (applied.counted() && applied.outcome() != null) {
                commands.finish(
                        job.jobId(),
                        job.attempt(),
                        workers,
                        new FailJob(
                                job.jobId(), job.attempt(), applied.outcome().error(), 0),
                        Caller.SCHEDULER);
                // the shards that were taken run for an attempt that has failed: they stop (the retry runs them all)
                stops.stopRunsOf(
                        job.jobId(),
                        "attempt " + job.attempt() + " failed: no worker took shard " + shard.getKey() + " of "
                                + total);
            }
        }
    }

    /** The row names the worker before the push, so a callback that beats the push's answer finds it. */
    private boolean tryPush(Candidate worker, PushedJob pushed, String app) {
        dispatches.pushing(
                pushed.jobId(), pushed.attempt(), pushed.shardIndex(), pushed.shardTotal(), worker.workerId());
        String[] why = {null};
        PushToWorker.Result result = pushes.push(worker, pushed, failure -> why[0] = failure);
        if (result == PushToWorker.Result.ACCEPTED) {
            registry.pushed(worker.workerId());
            return true;
        }
        if (result == PushToWorker.Result.FAILED) {
            registry.pushFailed(worker.workerId(), why[0] == null ? null : "node " + node + ": " + why[0]);
            metrics.pushFailed(app == null ? "any" : app);
        }
        return false;
    }

    /** Workers that ran the job before go last, keeping the route's order otherwise. */
    static List<Candidate> preferOthers(List<Candidate> order, Set<String> ranBefore) {
        if (ranBefore.isEmpty()) return order;
        List<Candidate> fresh = new ArrayList<>();
        List<Candidate> again = new ArrayList<>();
        for (Candidate c : order) (ranBefore.contains(c.workerId()) ? again : fresh).add(c);
        fresh.addAll(again);
        return fresh;
    }

    private PushedJob pushed(ClaimedJob job, int shard, int total) {
        return new PushedJob(
                job.jobId(),
                job.attempt(),
                job.jobType(),
                job.jobKey() != null ? job.jobKey() : job.jobId(),
                job.params(json),
                job.timeoutMs(),
                shard,
                total);
    }

    /** Hands the claim back without using a retry: no worker ran it. */
    private void release(ClaimedJob job, HandBackReason reason) {
        try {
            schedulerCommands.sendAndWait(new HandBackJob(job.jobId(), job.attempt(), reason));
        } catch (RuntimeException e) {
            log.warn("could not release claim of job {}; its lease will expire instead: {}", job.jobId(), e.toString());
        }
    }
}
