package io.axscheduler.scheduler;

import io.axscheduler.api.Metadata;
import io.axscheduler.api.job.JobCommand;
import io.axscheduler.api.job.JobCommandBatch;
import io.axscheduler.api.job.SubmitJob;
import io.axscheduler.api.job.SubmitResult;
import io.axscheduler.api.problem.RefusedOnCachedState;
import io.axscheduler.api.security.Caller;
import java.util.List;
import java.util.Map;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.stereotype.Component;

/** Commands the node sends on its own behalf: their events name the actor {@code scheduler}, unless said otherwise. */
@Component
public class SchedulerCommands {

    private final CommandGateway commands;

    public SchedulerCommands(CommandGateway commands) {
        this.commands = commands;
    }

    public <R> R sendAndWait(Object command) {
        return sendDecidedOnTheStore(GenericCommandMessage.asCommandMessage(command)
                .andMetaData(Map.of(Metadata.ACTOR, Metadata.SCHEDULER)));
    }

    /** As {@link #sendAndWait(Object)}, with {@code metadata} besides the actor (e.g. the worker that ran an attempt). */
    public <R> R sendAndWait(Object command, Map<String, ?> metadata) {
        return sendDecidedOnTheStore(GenericCommandMessage.asCommandMessage(command)
                .andMetaData(metadata)
                .andMetaData(Map.of(Metadata.ACTOR, Metadata.SCHEDULER)));
    }

    /**
     * A command a request caused, done by the node for its caller: the events name the caller as actor (a worker's
     * callback reports an outcome with its key), with {@code metadata} besides.
     */
    public <R> R sendAndWaitFor(Caller caller, Object command, Map<String, ?> metadata) {
        return sendDecidedOnTheStore(GenericCommandMessage.asCommandMessage(command)
                .andMetaData(metadata)
                .andMetaData(Caller.metadataOf(caller)));
    }

    /**
     * For a sender whose transaction holds row locks ({@code FOR UPDATE}): the aggregate's in-memory lock is not waited
     * for, a busy aggregate fails the command at once ({@code LockAcquisitionFailedException}). See
     * {@link Metadata#HOLDS_ROW_LOCKS}.
     */
    public <R> R sendHoldingRows(Object command) {
        return sendDecidedOnTheStore(GenericCommandMessage.asCommandMessage(command)
                .andMetaData(Map.of(Metadata.ACTOR, Metadata.SCHEDULER, Metadata.HOLDS_ROW_LOCKS, true)));
    }

    /**
     * Sends the command; refused on the state this node had cached ({@link RefusedOnCachedState}: another node may
     * have moved the aggregate on, e.g. run the job this node made), sends it once more, decided on the store's state.
     */
    private <R> R sendDecidedOnTheStore(CommandMessage<?> command) {
        try {
            return commands.sendAndWait(command);
        } catch (RefusedOnCachedState stale) {
            return commands.sendAndWait(command);
        }
    }

    /**
     * Submits a job whose key, if taken, fails the caller's unit of work ({@link Metadata#TAKEN_KEY_FAILS}) instead of
     * answering with the job the key made; the key is written as that unit commits.
     */
    public SubmitResult submitFailingOnTakenKey(SubmitJob submit) {
        return commands.sendAndWait(GenericCommandMessage.asCommandMessage(submit)
                .andMetaData(Map.of(Metadata.ACTOR, Metadata.SCHEDULER, Metadata.TAKEN_KEY_FAILS, true)));
    }

    /**
     * Sends the commands as one {@link JobCommandBatch} (one transaction, joining the caller's if there is one) and
     * answers, per command in order, null when applied or why it was refused.
     */
    public List<String> sendBatch(List<? extends JobCommand> batch) {
        if (batch.isEmpty()) return List.of();
        JobCommandBatch.Result result = sendAndWait(new JobCommandBatch(List.<JobCommand>copyOf(batch)));
        return result.refusals();
    }

    /**
     * As {@link #sendBatch}, from a transaction holding the jobs' rows: a job whose aggregate another command holds is
     * refused as {@link JobCommandBatch#BUSY} instead of waited for.
     */
    public List<String> sendBatchHoldingRows(List<? extends JobCommand> batch) {
        if (batch.isEmpty()) return List.of();
        JobCommandBatch.Result result = sendHoldingRows(new JobCommandBatch(List.<JobCommand>copyOf(batch)));
        return result.refusals();
    }
}
