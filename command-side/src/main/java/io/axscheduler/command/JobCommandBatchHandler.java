package io.axscheduler.command;

import io.axscheduler.api.job.JobCommand;
import io.axscheduler.api.job.JobCommandBatch;
import io.axscheduler.api.problem.IllegalTransitionException;
import java.util.ArrayList;
import java.util.List;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.common.lock.LockAcquisitionFailedException;
import org.axonframework.config.Configuration;
import org.axonframework.messaging.ResultMessage;
import org.axonframework.messaging.correlation.CorrelationDataProvider;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.axonframework.modelling.command.AggregateNotFoundException;
import org.axonframework.modelling.command.Repository;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Lazy;
import org.springframework.stereotype.Component;

/**
 * Applies a {@link JobCommandBatch}: each command in a unit of work nested in the batch's, so a refused command rolls
 * back alone (its events are dropped, its cached job evicted) while the accepted ones hand their events up. The batch's
 * unit of work then appends all of them in one JDBC batch and the job_queue projection sees them together, in the one
 * transaction of the batch. A command refused on the job as this node had it cached is decided once more on the store's
 * state (see {@link CachedStateRefusals}).
 */
@Component
class JobCommandBatchHandler {

    private final Repository<Job> jobs;
    private final Configuration axon;
    private final CommittedOnlyCache cached;

    JobCommandBatchHandler(
            Repository<Job> jobs,
            @Lazy Configuration axon,
            @Qualifier(AggregateCaches.JOBS) CommittedOnlyCache cached) {
        this.jobs = jobs;
        this.axon = axon;
        this.cached = cached;
    }

    @CommandHandler
    JobCommandBatch.Result handle(JobCommandBatch batch, CommandMessage<JobCommandBatch> message) throws Exception {
        List<CorrelationDataProvider> correlation = axon.correlationDataProviders();
        List<String> refusals = new ArrayList<>(batch.commands().size());
        for (JobCommand command : batch.commands()) {
            CommandMessage<?> one =
                    GenericCommandMessage.asCommandMessage(command).andMetaData(message.getMetaData());
            boolean wasCached = cached.containsKey(command.jobId());
            ResultMessage<?> result = handleAlone(one, command, correlation);
            if (wasCached && result.isExceptional() && result.exceptionResult() instanceof IllegalTransitionException) {
                // the rollback dropped the cached job: decided again on the store's state
                result = handleAlone(one, command, correlation);
            }
            if (!result.isExceptional()) {
                refusals.add(null);
            } else if (result.exceptionResult() instanceof IllegalTransitionException
                    || result.exceptionResult() instanceof AggregateNotFoundException) {
                refusals.add(result.exceptionResult().getMessage());
            } else if (result.exceptionResult() instanceof LockAcquisitionFailedException busy) {
                // only a batch sent holding row locks is refused a busy job (see AggregateLocks)
                refusals.add(JobCommandBatch.BUSY + busy.getMessage());
            } else {
                throw asException(result.exceptionResult());
            }
        }
        return new JobCommandBatch.Result(refusals);
    }

    /** The command in a unit of work nested in the batch's: refused, it rolls back alone. */
    private ResultMessage<?> handleAlone(
            CommandMessage<?> one, JobCommand command, List<CorrelationDataProvider> correlation) {
        DefaultUnitOfWork<CommandMessage<?>> unit = DefaultUnitOfWork.startAndGet(one);
        correlation.forEach(unit::registerCorrelationDataProvider);
        return unit.executeWithResult(() -> jobs.load(command.jobId()).handle(one));
    }

    private static Exception asException(Throwable t) {
        if (t instanceof Exception e) return e;
        throw (Error) t;
    }
}
