package io.axscheduler.scheduler.lifecycle;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import io.axscheduler.api.job.*;
import io.axscheduler.api.problem.IllegalTransitionException;
import io.axscheduler.scheduler.DatabaseTime;
import io.axscheduler.scheduler.SchedulerCommands;
import io.axscheduler.scheduler.observe.ObserveProperties;
import io.axscheduler.scheduler.run.RunInProcess;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.deadline.DeadlineManager;
import org.axonframework.deadline.annotation.DeadlineHandler;
import org.axonframework.eventhandling.Timestamp;
import org.axonframework.modelling.saga.EndSaga;
import org.axonframework.modelling.saga.SagaEventHandler;
import org.axonframework.modelling.saga.SagaLifecycle;
import org.axonframework.modelling.saga.StartSaga;
import org.axonframework.spring.stereotype.Saga;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * Drives one attempt of a job from its start to its end: schedules the run deadline (a persistent, cluster-wide
 * db-scheduler deadline), cancels it when the attempt ends, and applies the retry policy to a failed or timed-out
 * attempt. It lives from {@code JobStarted} to the end of that attempt; the next attempt starts a new one.
 *
 * <p>Resources are handler parameters, never fields: the saga is serialized with Jackson between events. The
 * deadline handler decides by sending a command to the {@code Job} aggregate — it may run on another node than the
 * one handling this saga's events, and saga state is not version-checked, but the job's event stream is. The one
 * saga state it writes, the id of a late deadline's grace deadline, may be lost to a concurrent event: that leaves a
 * deadline uncancelled, whose {@code TimeOutJob} the ended attempt refuses.
 */
@Saga
@ProcessingGroup(JobLifecycleSaga.PROCESSING_GROUP)
@JsonAutoDetect(
        fieldVisibility = JsonAutoDetect.Visibility.ANY,
        getterVisibility = JsonAutoDetect.Visibility.NONE,
        isGetterVisibility = JsonAutoDetect.Visibility.NONE)
public class JobLifecycleSaga {

    public static final String PROCESSING_GROUP = "job-lifecycle";
    static final String JOB_ID = "jobId";
    static final String RUN_DEADLINE = "job-run-timeout";
    /**
     * A run deadline firing later than this after it was due was held up: by the database or by no node running. Four
     * deadline polls (db-scheduler.polling-interval, 500 ms): a deadline due in an outage's last seconds is late too.
     */
    static final long LATE_MS = 2_000;
    /** What a late run deadline waits once more, for an outcome its node may hold queued until the database is back. */
    static final Duration GRACE = Duration.ofSeconds(10);

    private static final Logger log = LoggerFactory.getLogger(JobLifecycleSaga.class);

    private String jobId;
    private int attempt;
    private RetryPolicy retryPolicy;
    private String deadlineId;

    @StartSaga
    @SagaEventHandler(associationProperty = JOB_ID)
    void on(JobStarted event, DeadlineManager deadlines, NamedParameterJdbcTemplate jdbc, Clock clock) {
        jobId = event.jobId();
        attempt = event.attempt();
        retryPolicy = event.retryPolicy();
        cancelDeadline(deadlines);
        // the attempt's end is already in hand (a short run): a deadline would be armed and disarmed in one commit
        if (BatchLookahead.attemptEndsLater(jobId, attempt)) return;
        // it succeeded or was canceled before this batch was read: nothing is left to watch, and nothing is stored
        if (BatchLookahead.attemptAlreadyEnded(jobId, attempt, jdbc)) {
            SagaLifecycle.end();
            return;
        }
        deadlineId = deadlines.schedule(
                Duration.ofMillis(event.timeoutMs()),
                RUN_DEADLINE,
                new RunDeadline(event.attempt(), clock.millis() + event.timeoutMs(), false, event.timeoutMs()));
    }

    @EndSaga
    @SagaEventHandler(associationProperty = JOB_ID)
    void on(JobSucceeded event, DeadlineManager deadlines) {
        cancelDeadline(deadlines);
    }

    @EndSaga
    @SagaEventHandler(associationProperty = JOB_ID)
    void on(JobFailed event, @Timestamp Instant recordedAt, DeadlineManager deadlines, SchedulerCommands commands) {
        cancelDeadline(deadlines);
        retryIfAllowed(event.attempt(), recordedAt, commands);
    }

    @SagaEventHandler(associationProperty = JOB_ID)
    void on(JobTimedOut event, @Timestamp Instant recordedAt, DeadlineManager deadlines, SchedulerCommands commands) {
        if (event.phase() != TimeoutPhase.RUN) {
            return; // a lapsed claim of a later attempt: it never started, nothing of ours to end
        }
        cancelDeadline(deadlines);
        retryIfAllowed(event.attempt(), recordedAt, commands);
        SagaLifecycle.end();
    }

    @EndSaga
    @SagaEventHandler(associationProperty = JOB_ID)
    void on(JobCanceled event, DeadlineManager deadlines) {
        cancelDeadline(deadlines);
    }

    /**
     * Times the attempt out. A deadline that comes more than {@link #LATE_MS} late was held up by a database outage (or
     * by no node running), during which the attempt may well have ended: its node then holds the outcome until the
     * database is back (see {@code ReportOutcomes}), and timing it out first would run the job again. Such a deadline
     * waits {@link #GRACE} once more; an attempt that did not end is timed out then.
     */
    @DeadlineHandler(deadlineName = RUN_DEADLINE)
    void onRunDeadline(
            RunDeadline deadline,
            SchedulerCommands commands,
            DeadlineManager deadlines,
            Clock clock,
            NamedParameterJdbcTemplate jdbc,
            ObserveProperties observe) {
        long lateMs = deadline.dueAtMs() == 0 ? 0 : clock.millis() - deadline.dueAtMs();
        // the grace is the running attempt's: a late deadline of an earlier one is refused by the job as ever
        if (!deadline.grace() && lateMs > LATE_MS && deadline.attempt() == attempt) {
            log.info(
                    "run deadline of job {} attempt {} came {} ms late; its outcome may still be on its way, {} more",
                    jobId,
                    deadline.attempt(),
                    lateMs,
                    GRACE);
            deadlineId = deadlines.schedule(
                    GRACE,
                    RUN_DEADLINE,
                    new RunDeadline(deadline.attempt(), clock.millis() + GRACE.toMillis(), true, deadline.timeoutMs()));
            return;
        }
        try {
            commands.sendAndWait(
                    new TimeOutJob(jobId, deadline.attempt(), TimeoutPhase.RUN, reason(deadline, jdbc, observe)));
        } catch (IllegalTransitionException alreadyEnded) {
            log.debug("run deadline of job {} attempt {} came after the attempt ended", jobId, deadline.attempt());
        }
    }

    /** Why the deadline times the attempt out: its node went silent, or (as ever) it ran past its timeoutMs. */
    private String reason(RunDeadline deadline, NamedParameterJdbcTemplate jdbc, ObserveProperties observe) {
        String silent = silentNode(jdbc, observe);
        if (silent != null) return silent;
        return deadline.timeoutMs() > 0 ? runTooLong(deadline.timeoutMs()) : null;
    }

    static String runTooLong(long timeoutMs) {
        return "it ran longer than its timeoutMs (" + timeoutMs + " ms)";
    }

    /**
     * The timeout's reason when the attempt ran in the pools of a node that is silent (killed, or cut off from the
     * database), by the rule explain's NODE_GONE and a restart's check use ({@link ObserveProperties#nodeSilentMs}):
     * {@code its node n-1 has not reported since …}, which the history, explain and the failure alerts show instead of a bare timeout. Null for a live node, a remote worker's run (its removal says why),
     * or when the question cannot be answered (the deadline goes on without it).
     */
    private String silentNode(NamedParameterJdbcTemplate jdbc, ObserveProperties observe) {
        try {
            List<Map<String, Object>> rows = jdbc.queryForList(
                    "SELECT q.node, n.reported_at FROM job_queue q LEFT JOIN ax_nodes n ON n.node_id = q.node"
                            + " WHERE q.job_id = :id AND q.worker = :inProcess AND q.node IS NOT NULL"
                            + " AND (n.reported_at IS NULL OR n.reported_at < " + DatabaseTime.NOW_MS + " - :quiet)",
                    Map.of("id", jobId, "quiet", observe.nodeSilentMs(), "inProcess", RunInProcess.WORKER));
            if (rows.isEmpty()) return null;
            Object reported = rows.get(0).get("reported_at");
            return "its node " + rows.get(0).get("node")
                    + (reported == null
                            ? " no longer reports"
                            : " has not reported since " + Instant.ofEpochMilli(((Number) reported).longValue()))
                    + " (stopped, or cut off from the database) while running it";
        } catch (RuntimeException unanswered) {
            log.debug("could not tell whether job {}'s node still reports: {}", jobId, unanswered.toString());
            return null;
        }
    }

    /**
     * Schedules the next attempt the backoff after the end was recorded ({@code endedAt}, the event's time): the saga
     * reads events behind their commit — seconds behind after an outage or a restart — and that lag is not the job's
     * to wait again. A retry whose time has passed meanwhile is due at once.
     */
    private void retryIfAllowed(int endedAttempt, Instant endedAt, SchedulerCommands commands) {
        if (!retryPolicy.allowsRetryAfter(endedAttempt)) {
            return;
        }
        try {
            commands.sendAndWait(new ScheduleRetry(
                    jobId, endedAttempt, endedAt.plusMillis(retryPolicy.delayAfterAttempt(endedAttempt))));
        } catch (IllegalTransitionException overtaken) {
            // an operator canceled or re-ran the job first; their decision stands
            log.debug(
                    "retry of job {} after attempt {} not scheduled: {}", jobId, endedAttempt, overtaken.getMessage());
        }
    }

    private void cancelDeadline(DeadlineManager deadlines) {
        if (deadlineId != null) {
            deadlines.cancelSchedule(RUN_DEADLINE, deadlineId);
            deadlineId = null;
        }
    }
}
