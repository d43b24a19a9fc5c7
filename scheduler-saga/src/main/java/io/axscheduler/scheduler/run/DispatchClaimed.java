package io.axscheduler.scheduler.run;

import io.axscheduler.scheduler.ClaimedJob;
import io.axscheduler.scheduler.remote.DispatchRemote;
import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;
import org.springframework.stereotype.Component;

/**
 * Sends each job a claim batch handed over where it runs: an attempt the batch started here to this node's pools
 * ({@link RunInProcess}), a job bound to an executor app, or of a type no handler here runs, to a remote worker
 * ({@link DispatchRemote}).
 */
@Component
public class DispatchClaimed {

    /** The worker name of attempts run on a node's own pools. */
    public static final String IN_PROCESS_WORKER = RunInProcess.WORKER;

    private final RunInProcess inProcess;
    private final DispatchRemote remote;
    private final ReportOutcomes outcomes;

    public DispatchClaimed(RunInProcess inProcess, DispatchRemote remote, ReportOutcomes outcomes) {
        this.inProcess = inProcess;
        this.remote = remote;
        this.outcomes = outcomes;
    }

    /** Called with the job type whenever a run here ends and its slot is free again. */
    public void onSlotFreed(Consumer<String> listener) {
        inProcess.onSlotFreed(listener);
    }

    public void dispatch(List<ClaimedJob> claimed) {
        for (ClaimedJob job : claimed) {
            if (job.started()) inProcess.execute(job);
            else remote.dispatch(job);
        }
    }

    Collection<RunningAttempt> running() {
        return inProcess.running();
    }

    /** Stops both ways of running; outcomes still queued are written before it returns (for up to 5 s). */
    public void shutdown(long graceMs) {
        inProcess.shutdown(graceMs);
        outcomes.drainAndStop(5_000);
        remote.shutdown();
    }

    public boolean isStopping() {
        return inProcess.isStopping();
    }
}
