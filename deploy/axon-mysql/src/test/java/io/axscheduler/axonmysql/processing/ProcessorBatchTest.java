package io.axscheduler.axonmysql.processing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.messaging.Message;
import org.axonframework.messaging.unitofwork.BatchingUnitOfWork;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.junit.jupiter.api.Test;

/**
 * ProcessorBatch relies on Axon handing a streaming processor's batch to its handlers as one BatchingUnitOfWork, the
 * message being handled as its current message: this fails if an upgrade changes that.
 */
class ProcessorBatchTest {

    @Test
    void a_handler_inside_a_batch_sees_every_message_the_one_it_handles_and_one_shared_result() throws Exception {
        List<EventMessage<?>> events = List.of(
                GenericEventMessage.asEventMessage("a"),
                GenericEventMessage.asEventMessage("b"),
                GenericEventMessage.asEventMessage("c"));
        List<String> seen = new ArrayList<>();
        AtomicInteger computed = new AtomicInteger();

        new BatchingUnitOfWork<>(events).executeWithResult(() -> {
            ProcessorBatch batch = ProcessorBatch.current();
            assertThat(batch).isNotNull();
            assertThat(batch.messages())
                    .extracting(Message::getIdentifier)
                    .containsExactlyElementsOf(
                            events.stream().map(Message::getIdentifier).toList());
            seen.add(batch.currentMessageId());
            int size = batch.once("key", messages -> {
                computed.incrementAndGet();
                return messages.size();
            });
            assertThat(size).isEqualTo(3);
            return null;
        });

        assertThat(seen)
                .containsExactlyElementsOf(
                        events.stream().map(Message::getIdentifier).toList());
        assertThat(computed).hasValue(1);
    }

    @Test
    void outside_a_batch_there_is_none() throws Exception {
        assertThat(ProcessorBatch.current()).isNull();
        DefaultUnitOfWork.startAndGet(GenericEventMessage.asEventMessage("x")).executeWithResult(() -> {
            assertThat(ProcessorBatch.current()).isNull();
            return null;
        });
    }
}
