package io.axscheduler.axonmysql.processing;

import java.util.List;
import java.util.function.Function;
import org.axonframework.messaging.Message;
import org.axonframework.messaging.unitofwork.BatchingUnitOfWork;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;

/**
 * The batch of events a streaming processor is handling now, seen from a handler: which messages it holds, which one
 * is being handled, and a place to keep what was worked out once for the whole batch. Axon hands a processor's batch
 * to its handlers as one {@link BatchingUnitOfWork}; this is the only class that knows it.
 */
public final class ProcessorBatch {

    private final BatchingUnitOfWork<?> batch;

    private ProcessorBatch(BatchingUnitOfWork<?> batch) {
        this.batch = batch;
    }

    /** The batch being handled on this thread, or null when the handler runs outside a processor's batch. */
    public static ProcessorBatch current() {
        if (!CurrentUnitOfWork.isStarted()) return null;
        UnitOfWork<?> root = CurrentUnitOfWork.get().root();
        return root instanceof BatchingUnitOfWork<?> batch ? new ProcessorBatch(batch) : null;
    }

    /** Every message of the batch, in the order the processor handles them. */
    public List<? extends Message<?>> messages() {
        return batch.getMessages();
    }

    /** The identifier of the message being handled now. */
    public String currentMessageId() {
        return batch.getMessage().getIdentifier();
    }

    /** What {@code compute} makes of the batch's messages, computed once per batch and key. */
    @SuppressWarnings("unchecked")
    public <T> T once(String key, Function<List<? extends Message<?>>, T> compute) {
        return (T) batch.getOrComputeResource(key, k -> compute.apply(batch.getMessages()));
    }
}
