package io.axscheduler.scheduler.fire;

import io.axscheduler.api.schedule.ScheduleArmed;
import io.axscheduler.api.schedule.ScheduleCreated;
import io.axscheduler.api.schedule.ScheduleResumed;
import io.axscheduler.api.schedule.ScheduleUpdated;
import io.axscheduler.scheduler.claim.WakeOnDueWork;
import java.time.Instant;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * A schedule this node creates, changes, resumes or arms gets its fire made on time: the schedule loop, which
 * otherwise wakes for the next fire time it knew at its last pass, is woken for the new one after the commit (once a
 * transaction, for its earliest). In the scan's wake-up group: a subscribing processor, so it sees only this node's
 * events; the other nodes find the schedule at their next pass.
 */
@Component
@ProcessingGroup(WakeOnDueWork.PROCESSING_GROUP)
public class WakeOnNewFireTimes {

    private final ScanSchedules scan;

    public WakeOnNewFireTimes(ScanSchedules scan) {
        this.scan = scan;
    }

    @EventHandler
    void on(ScheduleCreated event) {
        wakeFor(event.nextFireTime());
    }

    @EventHandler
    void on(ScheduleUpdated event) {
        wakeFor(event.nextFireTime());
    }

    @EventHandler
    void on(ScheduleResumed event) {
        wakeFor(event.nextFireTime());
    }

    @EventHandler
    void on(ScheduleArmed event) {
        wakeFor(event.nextFireTime());
    }

    private void wakeFor(Instant nextFireTime) {
        if (nextFireTime == null) return;
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            scan.wakeFor(nextFireTime.toEpochMilli());
            return;
        }
        if (TransactionSynchronizationManager.getResource(this) instanceof Earliest earliest) {
            earliest.ms = Math.min(earliest.ms, nextFireTime.toEpochMilli());
            return;
        }
        Earliest earliest = new Earliest(nextFireTime.toEpochMilli());
        TransactionSynchronizationManager.bindResource(this, earliest);
        TransactionSynchronizationManager.registerSynchronization(earliest);
    }

    /** The earliest new fire time of one transaction; the loop is woken for it once the transaction commits. */
    private final class Earliest implements TransactionSynchronization {
        long ms;

        Earliest(long ms) {
            this.ms = ms;
        }

        @Override
        public void afterCompletion(int status) {
            TransactionSynchronizationManager.unbindResourceIfPossible(WakeOnNewFireTimes.this);
            if (status == STATUS_COMMITTED) scan.wakeFor(ms);
        }
    }
}
