package io.axscheduler.scheduler.remote;

import io.axscheduler.api.job.JobCanceled;
import io.axscheduler.api.job.JobStatus;
import io.axscheduler.scheduler.claim.WakeOnDueWork;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Tells workers at once to stop runs the scheduler no longer counts, from a thread of its own: a canceled job's runs
 * (told by the node that canceled it, after the commit: a subscribing processor, so only this node's events), the
 * other shards of a broadcast attempt that one shard failed, and the runs of a worker an admin takes out (or whose
 * key is revoked) before they are given up and retried. Best effort: a worker not reached now is told on its next
 * heartbeat's answer ({@link WorkerDispatches#toStop}), which names a run until its outcome is called back; a worker
 * taken out stops its runs at its next heartbeat (410) either way.
 */
@Component
@ProcessingGroup(WakeOnDueWork.PROCESSING_GROUP)
public class StopRemoteRuns {

    private static final Logger log = LoggerFactory.getLogger(StopRemoteRuns.class);
    static final int QUEUE = 1000;

    private final WorkerDispatches dispatches;
    private final PushToWorker pushes;
    private final ThreadPoolExecutor stops;

    public StopRemoteRuns(WorkerDispatches dispatches, PushToWorker pushes) {
        this.dispatches = dispatches;
        this.pushes = pushes;
        this.stops = new ThreadPoolExecutor(1, 1, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE), r -> {
            Thread t = new Thread(r, "ax-worker-stops");
            t.setDaemon(true);
            return t;
        });
        stops.allowCoreThreadTimeOut(true);
    }

    /** Only a job that was claimed or running can have a run on a worker. */
    @EventHandler
    void on(JobCanceled event) {
        if (event.previousStatus() != JobStatus.RUNNING && event.previousStatus() != JobStatus.CLAIMED) return;
        String reason = "the job was canceled"
                + (event.reason() == null || event.reason().isBlank() ? "" : ": " + event.reason());
        Runnable stop = () -> stopRunsOf(event.jobId(), reason);
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    stop.run();
                }
            });
        } else {
            stop.run();
        }
    }

    /** Tells the workers holding {@code jobId}'s runs the job no longer counts to stop them. */
    public void stopRunsOf(String jobId, String reason) {
        stopRunsOf(List.of(jobId), run -> reason);
    }

    /** As {@link #stopRunsOf(String, String)} for several jobs at once (one read), each run's reason its own. */
    public void stopRunsOf(Collection<String> jobIds, Function<WorkerDispatches.Pushed, String> reason) {
        if (jobIds.isEmpty()) return;
        later(() -> {
            for (WorkerDispatches.Pushed run : dispatches.pushedOf(jobIds)) pushes.stop(run, reason.apply(run), false);
        });
    }

    /**
     * Tells a worker taken out to stop its runs, and that it is out: runs read before their worker was removed (which
     * deletes its secret).
     */
    public void stopTakenOut(List<WorkerDispatches.Pushed> runs, String reason) {
        if (!runs.isEmpty()) later(() -> runs.forEach(run -> pushes.stop(run, reason, true)));
    }

    private void later(Runnable stop) {
        try {
            stops.execute(() -> {
                try {
                    stop.run();
                } catch (RuntimeException e) {
                    log.info("could not tell workers to stop runs ({}); their heartbeats will", e.toString());
                }
            });
        } catch (RejectedExecutionException full) {
            // a burst of stops: the heartbeats tell the rest
        }
    }
}
