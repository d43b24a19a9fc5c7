package io.axscheduler.command;

import static io.axscheduler.api.job.JobStatus.*;
import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import io.axscheduler.api.job.*;
import io.axscheduler.api.job.JobStatus;
import java.time.Clock;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.spring.stereotype.Aggregate;

/**
 * One job's life. Each handler checks the move with {@link JobTransitions}, checks that the command speaks of the
 * attempt that is current (a late outcome of an older attempt is refused), then applies the event; state changes
 * only in the event-sourcing handlers. The event store's unique (aggregate, sequence) makes every move a
 * compare-and-set across nodes.
 */
// snapshots are Jackson JSON of the fields: no getters, so fields are what it sees
@JsonAutoDetect(
        fieldVisibility = JsonAutoDetect.Visibility.ANY,
        getterVisibility = JsonAutoDetect.Visibility.NONE,
        isGetterVisibility = JsonAutoDetect.Visibility.NONE)
@Aggregate(
        cache = AggregateCaches.JOBS,
        lockFactory = AggregateCaches.JOB_LOCKS,
        snapshotTriggerDefinition = Snapshots.JOBS)
class Job {

    @AggregateIdentifier
    private String jobId;

    private JobStatus status;
    /** Runs started so far; a claim prepares run number {@code attempt + 1}. */
    private int attempt;
    /** The worker running the current attempt, so that its outcome names it. */
    private String worker;

    private long timeoutMs;
    private RetryPolicy retryPolicy;

    Job() {}

    /** Ended for good: nothing but an operator's re-run (or a retry the saga asks for) touches it again. */
    boolean finished() {
        return status != null && status.isTerminal();
    }

    Job(SubmitJob c) {
        apply(JobCreated.of(c));
    }

    @CommandHandler
    void handle(ClaimJob c) {
        JobTransitions.check(jobId, status, CLAIMED);
        apply(new JobClaimed(jobId, attempt + 1, c.node(), c.leaseUntil()));
    }

    @CommandHandler
    void handle(StartJob c) {
        requireClaimOf(c.attempt());
        JobTransitions.check(jobId, status, RUNNING);
        apply(new JobStarted(jobId, c.attempt(), c.node(), c.worker(), timeoutMs, retryPolicy));
    }

    @CommandHandler
    void handle(SucceedJob c) {
        requireRunning(c.attempt());
        apply(new JobSucceeded(jobId, c.attempt(), c.result(), c.durationMs(), worker));
    }

    @CommandHandler
    void handle(FailJob c) {
        requireRunning(c.attempt());
        apply(new JobFailed(jobId, c.attempt(), c.error(), c.durationMs(), worker));
    }

    @CommandHandler
    void handle(TimeOutJob c) {
        if (c.phase() == TimeoutPhase.CLAIM) {
            requireClaimOf(c.attempt());
            JobTransitions.check(jobId, status, WAITING);
        } else {
            requireRunning(c.attempt());
        }
        apply(new JobTimedOut(jobId, c.attempt(), c.phase(), c.reason()));
    }

    @CommandHandler
    void handle(HandBackJob c) {
        requireClaimOf(c.attempt());
        JobTransitions.check(jobId, status, WAITING);
        apply(new JobHandedBack(jobId, c.attempt(), c.reason()));
    }

    @CommandHandler
    void handle(ScheduleRetry c) {
        JobTransitions.checkPolicyRetry(jobId, status, attempt, c.attempt());
        apply(new JobRetryScheduled(jobId, attempt, c.runAt(), false));
    }

    @CommandHandler
    void handle(CancelJob c) {
        JobTransitions.checkCancel(jobId, status, retryPolicy != null && retryPolicy.allowsRetryAfter(attempt));
        apply(new JobCanceled(jobId, c.reason(), status));
    }

    @CommandHandler
    void handle(RetryJob c, Clock clock, KeptJobs kept) {
        JobTransitions.check(jobId, status, RETRY_WAITING);
        kept.lockOrUnknown(jobId);
        apply(new JobRetryScheduled(jobId, attempt, clock.instant(), true));
    }

    private void requireClaimOf(int claimedAttempt) {
        JobTransitions.checkClaimed(jobId, status, attempt, claimedAttempt);
    }

    private void requireRunning(int runningAttempt) {
        JobTransitions.checkRunning(jobId, status, attempt, runningAttempt);
    }

    @EventSourcingHandler
    void on(JobCreated e) {
        jobId = e.jobId();
        status = JobStatus.after(e);
        timeoutMs = e.timeoutMs();
        retryPolicy = e.retryPolicy();
    }

    @EventSourcingHandler
    void on(JobClaimed e) {
        status = JobStatus.after(e);
    }

    @EventSourcingHandler
    void on(JobStarted e) {
        status = JobStatus.after(e);
        attempt = e.attempt();
        worker = e.worker();
    }

    @EventSourcingHandler
    void on(JobSucceeded e) {
        status = JobStatus.after(e);
    }

    @EventSourcingHandler
    void on(JobFailed e) {
        status = JobStatus.after(e);
    }

    @EventSourcingHandler
    void on(JobTimedOut e) {
        status = JobStatus.after(e);
    }

    @EventSourcingHandler
    void on(JobHandedBack e) {
        status = JobStatus.after(e);
    }

    @EventSourcingHandler
    void on(JobRetryScheduled e) {
        status = JobStatus.after(e);
    }

    @EventSourcingHandler
    void on(JobCanceled e) {
        status = JobStatus.after(e);
    }
}
