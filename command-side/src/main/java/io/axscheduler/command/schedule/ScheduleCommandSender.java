package io.axscheduler.command.schedule;

import io.axscheduler.api.Metadata;
import io.axscheduler.api.problem.IllegalTransitionException;
import io.axscheduler.api.problem.NotFoundException;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.modelling.command.AggregateNotFoundException;
import org.axonframework.modelling.command.ConcurrencyException;
import org.springframework.stereotype.Component;

import java.util.Map;

/**
 * Sends an operator's command to a schedule with the actor in its metadata: an unknown schedule is a 404, another
 * node appending to it three times in a row under us is a 409.
 */
@Component
class ScheduleCommandSender {

    static final int ATTEMPTS_ON_CONCURRENT_CHANGE = 3;

    private final CommandGateway commands;

    ScheduleCommandSender(CommandGateway commands) {
        this.commands = commands;
    }

    <R> R send(String scheduleId, Object command, String actor) {
        ConcurrencyException lastRace = null;
        for (int i = 0; i < ATTEMPTS_ON_CONCURRENT_CHANGE; i++) {
            try {
                return commands.sendAndWait(GenericCommandMessage.asCommandMessage(command)
                        .andMetaData(Map.of(Metadata.ACTOR, actor)));
            } catch (AggregateNotFoundException e) {
                throw new NotFoundException("schedule", scheduleId);
            } catch (ConcurrencyException e) {
                lastRace = e;
            }
        }
        throw new IllegalTransitionException("schedule " + scheduleId + " kept changing under this command: " + lastRace.getMessage());
    }

    /** Inside a caller's transaction a retry cannot help: the first failure aborts the whole transaction. */
    <R> R sendOnce(String scheduleId, Object command, String actor) {
        try {
            return commands.sendAndWait(GenericCommandMessage.asCommandMessage(command)
                    .andMetaData(Map.of(Metadata.ACTOR, actor)));
        } catch (AggregateNotFoundException e) {
            throw new NotFoundException("schedule", scheduleId);
        } catch (ConcurrencyException e) {
            throw new IllegalTransitionException("schedule " + scheduleId + " changed under this command: " + e.getMessage());
        }
    }
}
