package io.axscheduler.scheduler.lifecycle;

import io.axscheduler.api.job.JobCanceled;
import io.axscheduler.api.job.JobFailed;
import io.axscheduler.api.job.JobSucceeded;
import io.axscheduler.api.job.JobTimedOut;
import io.axscheduler.api.job.TimeoutPhase;
import io.axscheduler.axonmysql.processing.ProcessorBatch;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.messaging.Message;

/**
 * What follows the event being handled in the batch the saga's processor is handling now. A run deadline armed for
 * an attempt whose end is later in the same batch would be inserted and deleted again in one transaction, unseen by
 * anyone: three or four statements per job for nothing, at the rate the scheduler runs short jobs.
 */
final class BatchLookahead {

    private static final String RESOURCE = BatchLookahead.class.getName();
    /** The attempt a cancel ends: whichever is running. */
    private static final int ANY = -1;

    private BatchLookahead() {}

    /** Whether this batch, after the event being handled, ends {@code attempt} of {@code jobId}. */
    static boolean attemptEndsLater(String jobId, int attempt) {
        ProcessorBatch batch = ProcessorBatch.current();
        if (batch == null) return false;
        Ends ends = batch.once(RESOURCE, Ends::of);
        Integer here = ends.position.get(batch.currentMessageId());
        return here != null
                && (ends.lastEnd(new Attempt(jobId, attempt)) > here || ends.lastEnd(new Attempt(jobId, ANY)) > here);
    }

    private record Attempt(String jobId, int attempt) {}

    /** Each message's position in the batch, and the last position at which each attempt ends (a cancel ends any). */
    private record Ends(Map<String, Integer> position, Map<Attempt, Integer> last) {

        static Ends of(List<? extends Message<?>> messages) {
            Map<String, Integer> position = new HashMap<>(messages.size() * 2);
            Map<Attempt, Integer> last = new HashMap<>();
            for (int i = 0; i < messages.size(); i++) {
                position.put(messages.get(i).getIdentifier(), i);
                if (messages.get(i) instanceof EventMessage<?> event) {
                    Attempt ended = ended(event.getPayload());
                    if (ended != null) last.put(ended, i);
                }
            }
            return new Ends(position, last);
        }

        int lastEnd(Attempt attempt) {
            return last.getOrDefault(attempt, -1);
        }

        private static Attempt ended(Object event) {
            if (event instanceof JobSucceeded e) return new Attempt(e.jobId(), e.attempt());
            if (event instanceof JobFailed e) return new Attempt(e.jobId(), e.attempt());
            if (event instanceof JobTimedOut e && e.phase() == TimeoutPhase.RUN)
                return new Attempt(e.jobId(), e.attempt());
            if (event instanceof JobCanceled e) return new Attempt(e.jobId(), ANY);
            return null;
        }
    }
}
