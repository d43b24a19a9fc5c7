package io.axscheduler.command;

import io.axscheduler.api.job.JobCanceled;
import io.axscheduler.api.job.JobFailed;
import io.axscheduler.api.job.JobStatus;
import io.axscheduler.api.job.JobSucceeded;
import io.axscheduler.api.job.JobTimedOut;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.stereotype.Component;

/**
 * Takes a job out of this node's job cache once it has ended, when its unit of work commits. A finished job is seldom
 * touched again (an operator's re-run or a retry reads it back from the store), and kept it would crowd out the live
 * ones: the cache admits a new entry over an old one by how often each was used (Caffeine's TinyLFU), so finished
 * jobs, each used three or four times, kept the newly made ones out, and at 100,000 schedules nearly every claim read
 * its job's events back from the store.
 */
@Component
@ProcessingGroup(ForgetFinishedJobs.PROCESSING_GROUP)
class ForgetFinishedJobs {

    static final String PROCESSING_GROUP = "job-cache";

    private final CommittedOnlyCache jobs;

    ForgetFinishedJobs(@Qualifier(AggregateCaches.JOBS) CommittedOnlyCache jobs) {
        this.jobs = jobs;
    }

    @EventHandler
    void on(JobSucceeded e) {
        forget(e.jobId());
    }

    @EventHandler
    void on(JobFailed e) {
        forget(e.jobId());
    }

    @EventHandler
    void on(JobTimedOut e) {
        if (JobStatus.after(e).isTerminal()) forget(e.jobId()); // a lapsed claim sends the job back to waiting
    }

    @EventHandler
    void on(JobCanceled e) {
        forget(e.jobId());
    }

    /** After the commit: the repository puts the aggregate back as its unit of work commits. */
    private void forget(String jobId) {
        if (CurrentUnitOfWork.isStarted()) CurrentUnitOfWork.get().root().afterCommit(u -> jobs.remove(jobId));
        else jobs.remove(jobId);
    }
}
