package io.axscheduler.scheduler.lifecycle;

import io.axscheduler.api.job.JobCanceled;
import io.axscheduler.api.job.JobFailed;
import io.axscheduler.api.job.JobStarted;
import io.axscheduler.api.job.JobStatus;
import io.axscheduler.api.job.JobSucceeded;
import io.axscheduler.api.job.JobTimedOut;
import io.axscheduler.api.job.TimeoutPhase;
import io.axscheduler.axonmysql.processing.ProcessorBatch;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.messaging.Message;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * What follows the event being handled in the batch the saga's processor is handling now. A run deadline armed for
 * an attempt whose end is later in the same batch would be inserted and deleted again in one transaction, unseen by
 * anyone: three or four statements per job for nothing, at the rate the scheduler runs short jobs.
 */
final class BatchLookahead {

    private static final String RESOURCE = BatchLookahead.class.getName();
    private static final String ENDED_BEFORE = BatchLookahead.class.getName() + ".endedBefore";
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

    /**
     * Whether {@code attempt} of {@code jobId} had already ended, and needs nothing more from a saga, when this batch
     * was read: {@code job_queue} (written in the transaction of each event) shows it SUCCEEDED on that attempt, or
     * CANCELED. Its end is then in the store, in a later batch, and the saga can end now instead of arming a deadline
     * and storing itself only to undo both: six or seven statements a job whenever a short job's start and end fall
     * into different batches. A failed or timed-out attempt is never taken as ended here: its end decides a retry.
     * One query per batch, for the starts in it whose end it does not hold.
     */
    static boolean attemptAlreadyEnded(String jobId, int attempt, NamedParameterJdbcTemplate jdbc) {
        ProcessorBatch batch = ProcessorBatch.current();
        if (batch == null) return false;
        Ends ends = batch.once(RESOURCE, Ends::of);
        Set<Attempt> ended = batch.once(ENDED_BEFORE, messages -> endedBefore(messages, ends, jdbc));
        return ended.contains(new Attempt(jobId, attempt));
    }

    private static Set<Attempt> endedBefore(
            List<? extends Message<?>> messages, Ends ends, NamedParameterJdbcTemplate jdbc) {
        Map<String, Integer> started = new HashMap<>();
        for (Message<?> m : messages) {
            if (m instanceof EventMessage<?> event
                    && event.getPayload() instanceof JobStarted s
                    && ends.lastEnd(new Attempt(s.jobId(), s.attempt())) < 0
                    && ends.lastEnd(new Attempt(s.jobId(), ANY)) < 0) started.put(s.jobId(), s.attempt());
        }
        if (started.isEmpty()) return Set.of();
        Set<Attempt> ended = new HashSet<>();
        jdbc.query(
                "SELECT job_id, status, attempt FROM job_queue WHERE job_id IN (:ids)"
                        + " AND status IN ('SUCCEEDED', 'CANCELED')",
                Map.of("ids", started.keySet()),
                rs -> {
                    String jobId = rs.getString("job_id");
                    int attempt = started.get(jobId);
                    if (over(attempt, rs.getString("status"), rs.getInt("attempt")))
                        ended.add(new Attempt(jobId, attempt));
                });
        return ended;
    }

    /**
     * Whether a job's read-model row ({@code status}, its current {@code rowAttempt}) shows {@code attempt} over with
     * nothing left for its saga to do: succeeded on that very attempt, or canceled on it or later.
     */
    static boolean over(int attempt, String status, int rowAttempt) {
        return switch (JobStatus.valueOf(status)) {
            case SUCCEEDED -> rowAttempt == attempt;
            case CANCELED -> rowAttempt >= attempt;
            default -> false;
        };
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
