package io.axscheduler.command;

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
 * Sends an operator's command to a job with the actor in its metadata. Translates Axon's answers into the API's:
 * an unknown aggregate is a 404; losing the append race to another node three times running is a 409.
 */
@Component
class JobCommandSender {

    static final int ATTEMPTS_ON_CONCURRENT_CHANGE = 3;

    private final CommandGateway commands;

    JobCommandSender(CommandGateway commands) {
        this.commands = commands;
    }

    <R> R send(String jobId, Object command, String actor) {
        ConcurrencyException lastRace = null;
        for (int i = 0; i < ATTEMPTS_ON_CONCURRENT_CHANGE; i++) {
            try {
                return commands.sendAndWait(GenericCommandMessage.asCommandMessage(command)
                        .andMetaData(Map.of(Metadata.ACTOR, actor)));
            } catch (AggregateNotFoundException e) {
                throw new NotFoundException("job", jobId);
            } catch (ConcurrencyException e) {
                // another node appended to this job between our load and our append: load again and re-check
                lastRace = e;
            }
        }
        throw new IllegalTransitionException("job " + jobId + " kept changing under this command: " + lastRace.getMessage());
    }
}
