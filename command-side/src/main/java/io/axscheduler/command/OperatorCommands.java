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
 * Sends an operator's command to a job or a schedule with the actor in its metadata, and translates Axon's answers
 * into the API's: an unknown aggregate is a 404; losing the append race to another node every time is a 409.
 */
@Component
public class OperatorCommands {

    static final int ATTEMPTS_ON_CONCURRENT_CHANGE = 3;

    private final CommandGateway commands;

    OperatorCommands(CommandGateway commands) {
        this.commands = commands;
    }

    /** On its own transaction: a race with another node is retried on a freshly loaded aggregate. */
    public <R> R send(String kind, String id, Object command, String actor) {
        ConcurrencyException lastRace = null;
        for (int i = 0; i < ATTEMPTS_ON_CONCURRENT_CHANGE; i++) {
            try {
                return sendInTransaction(kind, id, command, actor);
            } catch (RaceLost e) {
                lastRace = e.race;
            }
        }
        throw new IllegalTransitionException(kind + " " + id + " kept changing under this command: " + lastRace.getMessage());
    }

    /**
     * Inside a caller's transaction (a batch) a retry cannot help: the first failure aborts the whole transaction,
     * so a race is answered at once.
     */
    public <R> R sendOnce(String kind, String id, Object command, String actor) {
        try {
            return sendInTransaction(kind, id, command, actor);
        } catch (RaceLost e) {
            throw new IllegalTransitionException(kind + " " + id + " changed under this command: " + e.race.getMessage());
        }
    }

    private <R> R sendInTransaction(String kind, String id, Object command, String actor) {
        try {
            return commands.sendAndWait(GenericCommandMessage.asCommandMessage(command)
                    .andMetaData(Map.of(Metadata.ACTOR, actor)));
        } catch (AggregateNotFoundException e) {
            throw new NotFoundException(kind, id);
        } catch (ConcurrencyException e) {
            throw new RaceLost(e);
        }
    }

    private static final class RaceLost extends RuntimeException {
        final ConcurrencyException race;

        RaceLost(ConcurrencyException race) {
            super(race.getMessage(), null, false, false);
            this.race = race;
        }
    }
}
