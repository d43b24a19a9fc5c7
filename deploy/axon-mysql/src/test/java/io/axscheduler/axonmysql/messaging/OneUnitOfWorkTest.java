package io.axscheduler.axonmysql.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.axonframework.commandhandling.SimpleCommandBus;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.commandhandling.gateway.DefaultCommandGateway;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.eventhandling.SimpleEventBus;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Axon's own command bus and event bus: what the subscribers (the event store, the projections) receive, and when. */
class OneUnitOfWorkTest {

    private final SimpleEventBus events = SimpleEventBus.builder().build();
    private final SimpleCommandBus commandBus = SimpleCommandBus.builder().build();
    private final CommandGateway commands =
            DefaultCommandGateway.builder().commandBus(commandBus).build();
    private final List<List<Object>> batchesSeen = new ArrayList<>();

    @BeforeEach
    void handlers() {
        commandBus.subscribe(String.class.getName(), command -> {
            String payload = (String) command.getPayload();
            if (payload.startsWith("refuse")) throw new IllegalStateException(payload);
            events.publish(GenericEventMessage.asEventMessage(payload + " done"));
            return payload;
        });
        events.subscribe(batch -> batchesSeen.add(batch.stream()
                .map(EventMessage::getPayload)
                .map(Object.class::cast)
                .toList()));
    }

    @Test
    void the_events_of_all_commands_sent_inside_reach_the_subscribers_as_one_batch_at_the_end() {
        String answer = OneUnitOfWork.run(() -> {
            commands.sendAndWait("first");
            commands.sendAndWait("second");
            assertThat(batchesSeen).isEmpty();
            return commands.sendAndWait("third");
        });

        assertThat(answer).isEqualTo("third");
        assertThat(batchesSeen).containsExactly(List.of("first done", "second done", "third done"));
        assertThat(CurrentUnitOfWork.isStarted()).isFalse();
    }

    @Test
    void a_refused_command_rolls_back_the_ones_before_it_and_is_thrown() {
        assertThatThrownBy(() -> OneUnitOfWork.run(() -> {
                    commands.sendAndWait("first");
                    return commands.sendAndWait("refuse second");
                }))
                .hasMessageContaining("refuse second");

        assertThat(batchesSeen).isEmpty();
        assertThat(CurrentUnitOfWork.isStarted()).isFalse();
    }

    @Test
    void each_command_sent_alone_publishes_on_its_own() {
        commands.sendAndWait("first");
        commands.sendAndWait("second");

        assertThat(batchesSeen).containsExactly(List.of("first done"), List.of("second done"));
    }
}
