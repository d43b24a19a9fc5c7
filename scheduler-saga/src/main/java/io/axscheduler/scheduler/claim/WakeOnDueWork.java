package io.axscheduler.scheduler.claim;

import io.axscheduler.api.job.JobCreated;
import io.axscheduler.api.job.JobRetryScheduled;
import java.time.Clock;
import java.time.Instant;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Work this node creates is scanned for when it falls due — at once, or at its due time — not at the next tick. A
 * subscribing processor, so it sees only this node's events; it wakes the scanner after the commit, when the rows
 * are visible.
 */
@Component
@ProcessingGroup(WakeOnDueWork.PROCESSING_GROUP)
public class WakeOnDueWork {

    public static final String PROCESSING_GROUP = "scan-wakeup";

    private final ScanDueJobs scanner;
    private final StartDueFires startDueFires;
    private final Clock clock;

    public WakeOnDueWork(ScanDueJobs scanner, StartDueFires startDueFires, Clock clock) {
        this.scanner = scanner;
        this.startDueFires = startDueFires;
        this.clock = clock;
    }

    /** A job its fire claims and starts in this transaction needs no claim pass. */
    @EventHandler
    void on(JobCreated event) {
        if (startDueFires.startedInThisTransaction(event.jobId())) return;
        wakeIfDue(event.jobType(), event.executorApp(), event.runAt());
    }

    /** The retry event does not name the job's type: every lane is looked at when it falls due. */
    @EventHandler
    void on(JobRetryScheduled event) {
        wakeIfDue(null, null, event.runAt());
    }

    private void wakeIfDue(String jobType, String executorApp, Instant runAt) {
        Runnable wake = runAt.isAfter(clock.instant())
                ? () -> scanner.wakeAt(jobType, executorApp, runAt)
                : () -> scanner.wake(jobType);
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    wake.run();
                }
            });
        } else {
            wake.run();
        }
    }
}
