package io.axscheduler.scheduler.remote;

import io.axscheduler.api.job.JobCanceled;
import io.axscheduler.api.job.JobStatus;
import io.axscheduler.scheduler.claim.WakeOnDueWork;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * A cancel reaches the remote workers running the job at once: the node that canceled it (a subscribing processor,
 * so only this node's events) tells each of them to stop, after the commit, from a thread of its own. Best effort:
 * a worker not reached now is told on its next heartbeat's answer ({@link WorkerDispatches#toStop}), which names
 * the run until its outcome is called back.
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
        Runnable stop = () -> submit(event.jobId(), reason);
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

    private void submit(String jobId, String reason) {
        try {
            stops.execute(() -> {
                try {
                    for (WorkerDispatches.Pushed run : dispatches.pushedOf(jobId)) pushes.stop(run, reason);
                } catch (RuntimeException e) {
                    log.info(
                            "could not tell the workers of job {} to stop ({}); their heartbeats will",
                            jobId,
                            e.toString());
                }
            });
        } catch (RejectedExecutionException full) {
            // a burst of cancels: the heartbeats tell the rest
        }
    }
}
