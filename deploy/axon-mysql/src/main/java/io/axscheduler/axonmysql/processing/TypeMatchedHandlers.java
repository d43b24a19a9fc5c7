package io.axscheduler.axonmysql.processing;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.axonframework.eventhandling.EventHandlerInvoker;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.MultiEventHandlerInvoker;
import org.axonframework.eventhandling.Segment;

/**
 * A processing group's handlers that answer "none of us handles this payload type" from a map. Axon asks
 * {@code canHandle} of every subscribing processor for every event published, twice for those it handles, and each
 * ask walks every handler method of the group through its layers of wrappers; most events (a job's four, to the
 * schedules projection) have no handler in the group at all. Whether a group has a handler for a payload type is
 * fixed once the handlers are built ({@code canHandleType}), so a type it has none for is known after the first ask;
 * for a type it has one for, Axon's own {@code canHandle} still decides (parameters, segment).
 */
public final class TypeMatchedHandlers implements EventHandlerInvoker {

    private final EventHandlerInvoker delegate;
    private final Map<Class<?>, Boolean> handledTypes = new ConcurrentHashMap<>();
    // asked by Axon's MultiEventHandlerInvoker before every canHandle; fixed once the handlers are built, like the
    // types
    private final boolean supportsReset;

    TypeMatchedHandlers(EventHandlerInvoker delegate) {
        this.delegate = delegate;
        this.supportsReset = delegate.supportsReset();
    }

    /** {@code invoker}'s groups each so wrapped, when it is Axon's usual {@link MultiEventHandlerInvoker}. */
    public static EventHandlerInvoker wrap(EventHandlerInvoker invoker) {
        if (!(invoker instanceof MultiEventHandlerInvoker multi)) return new TypeMatchedHandlers(invoker);
        return new MultiEventHandlerInvoker(multi.delegates().stream()
                .map(d -> d instanceof TypeMatchedHandlers ? d : new TypeMatchedHandlers(d))
                .toList());
    }

    @Override
    public boolean canHandle(EventMessage<?> eventMessage, Segment segment) {
        return canHandleType(eventMessage.getPayloadType()) && delegate.canHandle(eventMessage, segment);
    }

    @Override
    public boolean canHandleType(Class<?> payloadType) {
        return handledTypes.computeIfAbsent(payloadType, delegate::canHandleType);
    }

    @Override
    public void handle(EventMessage<?> message, Segment segment) throws Exception {
        delegate.handle(message, segment);
    }

    @Override
    public boolean supportsReset() {
        return supportsReset;
    }

    @Override
    public void performReset() {
        delegate.performReset();
    }

    @Override
    public <R> void performReset(R resetContext) {
        delegate.performReset(resetContext);
    }

    @Override
    public void segmentReleased(Segment segment) {
        delegate.segmentReleased(segment);
    }
}
