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
import org.springframework.context.annotation.Lazy;
import org.springframework.stereotype.Component;

/**
 * Applies a {@link JobCommandBatch}: each command in a unit of work nested in the batch's, so a refused command rolls
 * back alone (its events are dropped, its cached job evicted) while the accepted ones hand their events up. The batch's
 * unit of work then appends all of them in one JDBC batch and the job_queue projection sees them together, in the one
 * transaction of the batch.
 */
@Component
class JobCommandBatchHandler {

    private final Repository<Job> jobs;
    private final Configuration axon;

    JobCommandBatchHandler(Repository<Job> jobs, @Lazy Configuration axon) {
        this.jobs = jobs;
        this.axon = axon;
    }

    @CommandHandler
    JobCommandBatch.Result handle(JobCommandBatch batch, CommandMessage<JobCommandBatch> message) throws Exception {
        List<CorrelationDataProvider> correlation = axon.correlationDataProviders();
        List<String> refusals = new ArrayList<>(batch.commands().size());
        for (JobCommand command : batch.commands()) {
            CommandMessage<?> one =
                    GenericCommandMessage.asCommandMessage(command).andMetaData(message.getMetaData());
            DefaultUnitOfWork<CommandMessage<?>> unit = DefaultUnitOfWork.startAndGet(one);
            correlation.forEach(unit::registerCorrelationDataProvider);
            ResultMessage<?> result =
                    unit.executeWithResult(() -> jobs.load(command.jobId()).handle(one));
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

    private static Exception asException(Throwable t) {
        if (t instanceof Exception e) return e;
        throw (Error) t;
    }
}
