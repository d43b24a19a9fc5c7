package io.axscheduler.axonmysql.processing;

import java.util.List;
import org.axonframework.eventhandling.EventHandlerInvoker;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.MultiEventHandlerInvoker;
import org.axonframework.eventhandling.ReplayToken;
import org.axonframework.eventhandling.Segment;

/**
 * A processor's handlers when they are one group, handling an event without asking the group again whether it
 * handles it. Axon's processors call {@code handle} only for an event {@code canHandle} accepted for the same segment
 * (a subscribing processor per event, a pooled processor's work package when it queues the event), and Axon's
 * {@link MultiEventHandlerInvoker} then asks each group once more before handing it over: for the job saga that
 * worked out the event's association values a second time, for a projection walked its handler methods again. The
 * answer is the same, so with one group the second ask is skipped; the replay rule (a group that cannot be reset sees
 * no replayed event) is kept. Still a {@link MultiEventHandlerInvoker}, with the one delegate.
 */
public final class OneGroupHandlers extends MultiEventHandlerInvoker {

    private final EventHandlerInvoker group;
    private final boolean supportsReset;

    private OneGroupHandlers(EventHandlerInvoker group) {
        super(List.of(group));
        this.group = group;
        this.supportsReset = group.supportsReset();
    }

    /** {@code invoker} itself unless it is Axon's multi-invoker over exactly one group. */
    public static EventHandlerInvoker wrap(EventHandlerInvoker invoker) {
        if (invoker instanceof OneGroupHandlers) return invoker;
        if (invoker instanceof MultiEventHandlerInvoker multi
                && multi.delegates().size() == 1)
            return new OneGroupHandlers(multi.delegates().get(0));
        return invoker;
    }

    @Override
    public boolean canHandle(EventMessage<?> eventMessage, Segment segment) {
        return sees(eventMessage) && group.canHandle(eventMessage, segment);
    }

    /** Called by the processor only for an event {@link #canHandle} accepted for this segment. */
    @Override
    public void handle(EventMessage<?> message, Segment segment) throws Exception {
        if (sees(message)) group.handle(message, segment);
    }

    @Override
    public boolean supportsReset() {
        return supportsReset;
    }

    private boolean sees(EventMessage<?> message) {
        return supportsReset || !ReplayToken.isReplay(message);
    }
}
