package io.axscheduler.axonmysql.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.axonframework.commandhandling.CommandResultMessage;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.commandhandling.SimpleCommandBus;
import org.axonframework.commandhandling.gateway.DefaultCommandGateway;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.messaging.MetaData;
import org.axonframework.messaging.correlation.CorrelationDataProvider;
import org.axonframework.messaging.interceptors.CorrelationDataInterceptor;
import org.junit.jupiter.api.Test;

/**
 * Handlers' results reach the sender as before, without asking the correlation data providers; the messages a
 * handler makes still carry the correlation data.
 */
class PlainResultsTest {

    private final AtomicInteger asked = new AtomicInteger();
    private final CorrelationDataProvider actor = message -> {
        asked.incrementAndGet();
        return Map.of("actor", message.getMetaData().getOrDefault("actor", "none"));
    };
    private final List<EventMessage<?>> made = new ArrayList<>();
    private final SimpleCommandBus bus = SimpleCommandBus.builder().build();
    private final DefaultCommandGateway gateway =
            DefaultCommandGateway.builder().commandBus(bus).build();

    PlainResultsTest() {
        bus.registerHandlerInterceptor(new CorrelationDataInterceptor<>(List.of(actor)));
        bus.registerHandlerInterceptor(new PlainResults());
        bus.subscribe(String.class.getName(), command -> {
            made.add(GenericEventMessage.asEventMessage("made from " + command.getPayload()));
            return switch ((String) command.getPayload()) {
                case "nothing" -> null;
                case "fail" -> throw new IllegalStateException("refused");
                default -> 42;
            };
        });
    }

    private CommandResultMessage<?> dispatch(String payload) {
        List<CommandResultMessage<?>> results = new ArrayList<>();
        bus.dispatch(
                GenericCommandMessage.asCommandMessage(payload).andMetaData(MetaData.with("actor", "key:ops")),
                (command, result) -> results.add(result));
        return results.get(0);
    }

    @Test
    void a_value_reaches_the_sender_and_only_the_handlers_own_messages_ask_for_correlation_data() {
        CommandResultMessage<?> result = dispatch("value");

        assertThat(result.isExceptional()).isFalse();
        assertThat(result.getPayload()).isEqualTo(42);
        assertThat(result.getMetaData()).isEmpty();
        assertThat(made)
                .singleElement()
                .satisfies(event -> assertThat(event.getMetaData()).containsEntry("actor", "key:ops"));
        assertThat(asked).hasValue(1);
        assertThat((Object) gateway.sendAndWait("value")).isEqualTo(42);
    }

    @Test
    void no_result_is_one_shared_message_and_the_sender_gets_null() {
        CommandResultMessage<?> first = dispatch("nothing");
        CommandResultMessage<?> second = dispatch("nothing");

        assertThat(first.isExceptional()).isFalse();
        assertThat(first.getPayload()).isNull();
        assertThat(second).isSameAs(first);
        assertThat(asked).hasValue(2);
        assertThat((Object) gateway.sendAndWait("nothing")).isNull();
    }

    @Test
    void an_exception_is_the_senders_as_before() {
        CommandResultMessage<?> result = dispatch("fail");

        assertThat(result.isExceptional()).isTrue();
        assertThat(result.exceptionResult())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("refused");
        assertThatThrownBy(() -> gateway.sendAndWait("fail")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void without_it_the_result_message_asks_too() {
        SimpleCommandBus plain = SimpleCommandBus.builder().build();
        plain.registerHandlerInterceptor(new CorrelationDataInterceptor<>(List.of(actor)));
        plain.subscribe(String.class.getName(), command -> 42);
        plain.dispatch(GenericCommandMessage.asCommandMessage("value"), (command, result) -> {});

        assertThat(asked).hasValue(1);
    }
}
