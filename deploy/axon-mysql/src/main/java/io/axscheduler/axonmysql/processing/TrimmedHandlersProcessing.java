package io.axscheduler.axonmysql.processing;

import org.axonframework.config.Configuration;
import org.axonframework.config.EventProcessingConfigurer.PooledStreamingProcessorConfiguration;
import org.axonframework.config.EventProcessingModule;
import org.axonframework.eventhandling.EventHandlerInvoker;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.EventProcessor;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.messaging.StreamableMessageSource;
import org.axonframework.messaging.SubscribableMessageSource;

/**
 * Axon's event processing module, with the processors' handler invokers trimmed where they are built: its subscribing
 * processors ask {@link TypeMatchedHandlers} whether a group
 * handles an event (only subscribing processors: they see every event published on this node, in the publishing
 * thread, and never a replay), and whose processors with one handler group hand an accepted event to it without
 * asking again ({@link OneGroupHandlers}). Segments and resets stay as Axon has them.
 */
public class TrimmedHandlersProcessing extends EventProcessingModule {

    private final boolean typeMatched;
    private final boolean oneGroup;

    public TrimmedHandlersProcessing() {
        this(true, true);
    }

    /**
     * @param typeMatched subscribing processors' groups are {@link TypeMatchedHandlers}
     * @param oneGroup a processor's one group is handed accepted events without a second ask ({@link OneGroupHandlers})
     */
    public TrimmedHandlersProcessing(boolean typeMatched, boolean oneGroup) {
        this.typeMatched = typeMatched;
        this.oneGroup = oneGroup;
    }

    @Override
    protected EventProcessor subscribingEventProcessor(
            String name,
            EventHandlerInvoker eventHandlerInvoker,
            SubscribableMessageSource<? extends EventMessage<?>> messageSource) {
        EventHandlerInvoker invoker = typeMatched ? TypeMatchedHandlers.wrap(eventHandlerInvoker) : eventHandlerInvoker;
        return super.subscribingEventProcessor(
                name, oneGroup ? OneGroupHandlers.wrap(invoker) : invoker, messageSource);
    }

    @Override
    protected EventProcessor pooledStreamingEventProcessor(
            String name,
            EventHandlerInvoker eventHandlerInvoker,
            Configuration config,
            StreamableMessageSource<TrackedEventMessage<?>> messageSource,
            PooledStreamingProcessorConfiguration processorConfiguration) {
        return super.pooledStreamingEventProcessor(
                name,
                oneGroup ? OneGroupHandlers.wrap(eventHandlerInvoker) : eventHandlerInvoker,
                config,
                messageSource,
                processorConfiguration);
    }
}
