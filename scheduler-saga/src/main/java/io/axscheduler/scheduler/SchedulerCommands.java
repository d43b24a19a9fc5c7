package io.axscheduler.scheduler;

import io.axscheduler.api.Metadata;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.stereotype.Component;

import java.util.Map;

/** Commands the node sends on its own behalf: their events name the actor {@code scheduler}. */
@Component
public class SchedulerCommands {

    private final CommandGateway commands;

    public SchedulerCommands(CommandGateway commands) {
        this.commands = commands;
    }

    public <R> R sendAndWait(Object command) {
        return commands.sendAndWait(GenericCommandMessage.asCommandMessage(command)
                .andMetaData(Map.of(Metadata.ACTOR, Metadata.SCHEDULER)));
    }
}
