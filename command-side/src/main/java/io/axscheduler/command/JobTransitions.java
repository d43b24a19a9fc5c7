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
 * </pre>
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

    static void check(String jobId, JobStatus from, JobStatus to) {
        if (!isAllowed(from, to)) {
            throw new IllegalTransitionException("job " + jobId + " is " + from + " and cannot move to " + to);
        }
    }
}
