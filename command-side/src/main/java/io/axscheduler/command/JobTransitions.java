package io.axscheduler.command;

import static io.axscheduler.api.job.JobStatus.*;

import io.axscheduler.api.job.JobStatus;
import io.axscheduler.api.problem.IllegalTransitionException;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The job state machine, written once. Every command of the {@link Job} aggregate asks here before it applies an
 * event; nothing else decides which move is legal.
 *
 * <pre>
 * WAITING ─claim→ CLAIMED ─start→ RUNNING ─→ SUCCEEDED
 *    ↑              │ lease expired      ├──→ FAILED ──retry→ RETRY_WAITING ─claim→ CLAIMED …
 *    └──────────────┘                    └──→ TIMED_OUT ─retry→ RETRY_WAITING
 * any non-terminal ─cancel→ CANCELED ─retry→ RETRY_WAITING
 * FAILED / TIMED_OUT with a retry to come ─cancel→ CANCELED
 * </pre>
 *
 * Besides the move, a command about an attempt must name the right one: a claimed attempt is the one after the last
 * run, a running attempt is the last run, and the retry policy retries only the last attempt and never one an
 * operator canceled. {@code attempt} below is the job's count of attempts started so far.
 */
final class JobTransitions {

    private static final Map<JobStatus, Set<JobStatus>> ALLOWED = new EnumMap<>(JobStatus.class);

    static {
        ALLOWED.put(WAITING, EnumSet.of(CLAIMED, CANCELED));
        ALLOWED.put(CLAIMED, EnumSet.of(RUNNING, WAITING, CANCELED));
        ALLOWED.put(RUNNING, EnumSet.of(SUCCEEDED, FAILED, TIMED_OUT, CANCELED));
        ALLOWED.put(RETRY_WAITING, EnumSet.of(CLAIMED, CANCELED));
        ALLOWED.put(FAILED, EnumSet.of(RETRY_WAITING));
        ALLOWED.put(TIMED_OUT, EnumSet.of(RETRY_WAITING));
        ALLOWED.put(CANCELED, EnumSet.of(RETRY_WAITING));
        ALLOWED.put(SUCCEEDED, EnumSet.noneOf(JobStatus.class));
    }

    private JobTransitions() {}

    static boolean isAllowed(JobStatus from, JobStatus to) {
        return ALLOWED.get(from).contains(to);
    }

    /** Starting a claimed attempt, or its claim timing out: the job is CLAIMED for exactly that attempt. */
    static void checkClaimed(String jobId, JobStatus status, int attempt, int claimedAttempt) {
        if (status != CLAIMED || claimedAttempt != attempt + 1) {
            throw new IllegalTransitionException("job " + jobId + " is " + status + " at attempt " + attempt
                    + "; attempt " + claimedAttempt + " is not the claimed one");
        }
    }

    /** An outcome of a run (succeeded, failed, timed out): the job is RUNNING exactly that attempt. */
    static void checkRunning(String jobId, JobStatus status, int attempt, int runningAttempt) {
        if (status != RUNNING || runningAttempt != attempt) {
            throw new IllegalTransitionException("job " + jobId + " is " + status + " at attempt " + attempt
                    + "; attempt " + runningAttempt + " is not running");
        }
    }

    /** The retry policy retries the last attempt when it failed or timed out, never one an operator canceled. */
    static void checkPolicyRetry(String jobId, JobStatus status, int attempt, int failedAttempt) {
        if (failedAttempt != attempt || status == CANCELED) {
            throw new IllegalTransitionException("job " + jobId + " is " + status + " at attempt " + attempt
                    + "; attempt " + failedAttempt + " cannot be retried by policy");
        }
        check(jobId, status, RETRY_WAITING);
    }

    /**
     * A cancel: from any status that moves to CANCELED, and from FAILED or TIMED_OUT while the retry policy has a
     * retry to come ({@code retryComing}): until the lifecycle saga has scheduled it the job is still alive, and the
     * retry it then asks for is refused.
     */
    static void checkCancel(String jobId, JobStatus status, boolean retryComing) {
        if (retryComing && (status == FAILED || status == TIMED_OUT)) return;
        check(jobId, status, CANCELED);
    }

    static void check(String jobId, JobStatus from, JobStatus to) {
        if (!isAllowed(from, to)) {
            throw new IllegalTransitionException(
                    from == to
                            ? "job " + jobId + " is already " + from
                            : "job " + jobId + " is " + from + " and cannot move to " + to);
        }
    }
}
