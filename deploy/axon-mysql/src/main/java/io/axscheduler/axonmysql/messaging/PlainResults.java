package io.axscheduler.axonmysql.messaging;

import org.axonframework.commandhandling.CommandResultMessage;
import org.axonframework.commandhandling.GenericCommandResultMessage;
import org.axonframework.common.IdentifierFactory;
import org.axonframework.messaging.GenericMessage;
import org.axonframework.messaging.InterceptorChain;
import org.axonframework.messaging.Message;
import org.axonframework.messaging.MessageHandlerInterceptor;
import org.axonframework.messaging.MetaData;
import org.axonframework.messaging.unitofwork.UnitOfWork;

/**
 * A handler's result handed to Axon as a result message without correlation data. A unit of work wraps what its
 * handler returns in a new result message unless it is one already, and a message made inside a unit of work asks
 * every correlation data provider about the message being handled and merges the answers into its metadata: for
 * every command handled and every event each processor handles, a result message whose metadata nobody reads (a
 * command's sender gets its payload, a processor only looks at whether it is an exception). On a tracking processor
 * the ask also reads the stored event's metadata, which its handlers may never need.
 * <p>
 * Only what a handler returns is changed: an exception passes through untouched (Axon makes its result message as
 * before), and so does a message. A {@code null} result, what every event handler and most command handlers give,
 * is one shared message. An interceptor registered before this one, nearer the bus or processor, sees the result
 * message instead of the plain value.
 */
public final class PlainResults implements MessageHandlerInterceptor<Message<?>> {

    private static final CommandResultMessage<Void> NONE = new GenericCommandResultMessage<>(
            new GenericMessage<>("no-result", Void.class, null, MetaData.emptyInstance()));

    @Override
    public Object handle(UnitOfWork<? extends Message<?>> unitOfWork, InterceptorChain interceptorChain)
            throws Exception {
        Object result = interceptorChain.proceed();
        if (result == null) return NONE;
        if (result instanceof Message<?>) return result;
        return new GenericCommandResultMessage<>(new GenericMessage<>(
                IdentifierFactory.getInstance().generateIdentifier(), result, MetaData.emptyInstance()));
    }
}
