package io.axscheduler.scheduler.saga;

import io.axscheduler.api.job.JobCanceled;
import io.axscheduler.api.job.JobFailed;
import io.axscheduler.api.job.JobSucceeded;
import io.axscheduler.api.job.JobTimedOut;
import io.axscheduler.api.job.TimeoutPhase;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.messaging.Message;
import org.axonframework.messaging.unitofwork.BatchingUnitOfWork;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;

/**
 * What follows the event being handled in the batch the saga's processor is handling now. A run deadline armed for
 * an attempt whose end is later in the same batch would be inserted and deleted again in one transaction, unseen by
 * anyone: three or four statements per job for nothing, at the rate the scheduler runs short jobs.
 */
final class BatchLookahead {

    private BatchLookahead() {
    }

    /** Whether this batch, after the event being handled, ends {@code attempt} of {@code jobId}. */
    static boolean attemptEndsLater(String jobId, int attempt) {
        if (!CurrentUnitOfWork.isStarted() || !(CurrentUnitOfWork.get().root() instanceof BatchingUnitOfWork<?> batch)) {
            return false;
        }
        String current = batch.getMessage().getIdentifier();
        boolean after = false;
        for (Message<?> message : batch.getMessages()) {
            if (after && message instanceof EventMessage<?> event && ends(event.getPayload(), jobId, attempt)) return true;
            if (message.getIdentifier().equals(current)) after = true;
        }
        return false;
    }

    private static boolean ends(Object event, String jobId, int attempt) {
        if (event instanceof JobSucceeded e) return e.jobId().equals(jobId) && e.attempt() == attempt;
        if (event instanceof JobFailed e) return e.jobId().equals(jobId) && e.attempt() == attempt;
        if (event instanceof JobTimedOut e) return e.jobId().equals(jobId) && e.attempt() == attempt && e.phase() == TimeoutPhase.RUN;
        return event instanceof JobCanceled e && e.jobId().equals(jobId);
    }
}
