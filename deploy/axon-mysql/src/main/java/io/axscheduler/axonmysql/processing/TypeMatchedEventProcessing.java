package io.axscheduler.axonmysql.processing;

import org.axonframework.config.EventProcessingModule;
import org.axonframework.eventhandling.EventHandlerInvoker;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.EventProcessor;
import org.axonframework.messaging.SubscribableMessageSource;

/**
 * Axon's event processing module, whose subscribing processors ask {@link TypeMatchedHandlers} whether a group
 * handles an event. Only subscribing processors: they see every event published on this node, in the publishing
 * thread, and never a replay; the pooled processors' segments and resets stay as Axon has them.
 */
public class TypeMatchedEventProcessing extends EventProcessingModule {

    @Override
    protected EventProcessor subscribingEventProcessor(
            String name,
            EventHandlerInvoker eventHandlerInvoker,
            SubscribableMessageSource<? extends EventMessage<?>> messageSource) {
        return super.subscribingEventProcessor(name, TypeMatchedHandlers.wrap(eventHandlerInvoker), messageSource);
    }
}
