package io.axscheduler.deploy;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.exceptions.ExecutionException;
import com.github.kagkarlsson.scheduler.exceptions.TaskInstanceCurrentlyExecutingException;
import com.github.kagkarlsson.scheduler.exceptions.TaskInstanceNotFoundException;
import org.axonframework.deadline.DeadlineManagerSpanFactory;
import org.axonframework.deadline.dbscheduler.DbSchedulerDeadlineManager;
import org.axonframework.deadline.dbscheduler.DbSchedulerDeadlineToken;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Axon's db-scheduler deadline manager, except that cancelling a deadline whose task a node is executing at that
 * moment (or picks or completes while the cancel reads it) is not an error. Axon's lets db-scheduler's refusal
 * through at the commit of the cancelling unit of work: a job that ended just as its run deadline fired aborted the
 * whole batch of the job saga's segment, which then waited and went through again, holding up every job of that
 * segment. The executing deadline needs no cancel: its handler finds the attempt ended (or the saga gone) and does
 * nothing, and db-scheduler removes a one-time task once run.
 */
class RunningDeadlines extends DbSchedulerDeadlineManager {

    private static final Logger log = LoggerFactory.getLogger(RunningDeadlines.class);

    private final Scheduler scheduler;
    private final DeadlineManagerSpanFactory spans;

    RunningDeadlines(Builder builder, Scheduler scheduler, DeadlineManagerSpanFactory spans) {
        super(builder.scheduler(scheduler).spanFactory(spans));
        this.scheduler = scheduler;
        this.spans = spans;
    }

    @Override
    public void cancelSchedule(String deadlineName, String scheduleId) {
        runOnPrepareCommitOrNow(spans.createCancelScheduleSpan(deadlineName, scheduleId)
                .wrapRunnable(() -> {
                    try {
                        scheduler.cancel(new DbSchedulerDeadlineToken(scheduleId));
                    } catch (TaskInstanceNotFoundException gone) {
                        log.debug("deadline {} ({}) was gone already", scheduleId, deadlineName);
                    } catch (TaskInstanceCurrentlyExecutingException running) {
                        log.debug("deadline {} ({}) is being executed: left to run out", scheduleId, deadlineName);
                    } catch (ExecutionException changed) {
                        // read, then picked or run and removed by a node before the delete of its version
                        log.debug("deadline {} ({}) changed under the cancel: {}", scheduleId, deadlineName, changed);
                    }
                }));
    }
}
