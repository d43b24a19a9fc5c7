package io.axscheduler.axonmysql.saga;

import java.lang.reflect.Method;
import java.util.HashSet;
import java.util.Set;
import org.axonframework.common.ReflectionUtils;
import org.axonframework.common.annotation.AnnotationUtils;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.Segment;
import org.axonframework.messaging.Message;
import org.axonframework.modelling.saga.AnnotatedSagaManager;
import org.axonframework.modelling.saga.AssociationValue;
import org.axonframework.modelling.saga.SagaEventHandler;

/**
 * A saga manager that hands each event to one segment of the processor: the one its association value (the job id)
 * hashes to. Axon's manager offers every event a saga handles to every segment, and each segment looks up the event's
 * sagas and drops those whose saga id belongs elsewhere: with 4 segments, four times the handling for one invocation.
 * <p>
 * A saga is created by the segment its initial association value matches (Axon's rule, unchanged), so routing events
 * by that same value brings every event of a job to the segment that made the job's saga. That segment invokes every
 * saga the association finds, whatever its id: the id's own segment no longer matters, so a split or merge of segments
 * — after which a saga id and its association value may match different halves — still reaches every saga exactly
 * once, and so do sagas created before this routing, under a random id.
 * <p>
 * This holds for sagas whose events each carry one association value, as {@link JobLifecycleSaga}'s (the job id):
 * an event with two values could reach two segments, each finding the sagas of both.
 * <p>
 * It also says which payload types the saga handles at all ({@link #canHandleType}); Axon's manager says "every
 * type". A pooled processor asks that of an event no segment took, and tells its event stream to skip the type from
 * then on: a stream that can skip then keeps a job's creation and claim, and every schedule event, away from the
 * segments, each of which would otherwise offer it to the saga and queue it only to advance past it.
 */
public class SegmentRoutedSagaManager<T> extends AnnotatedSagaManager<T> {

    private final Set<Class<?>> handledTypes;
    /** Per thread, the last event {@link #canHandle} routed (see there). */
    private final ThreadLocal<Routed> lastRouted = new ThreadLocal<>();

    public SegmentRoutedSagaManager(AnnotatedSagaManager.Builder<T> builder) {
        super(builder);
        this.handledTypes = handledTypes(getSagaType());
    }

    /** True when one of the saga's {@code @SagaEventHandler}s takes {@code payloadType} (or a supertype of it). */
    @Override
    public boolean canHandleType(Class<?> payloadType) {
        return handledTypes.stream().anyMatch(type -> type.isAssignableFrom(payloadType));
    }

    /**
     * The payload types of the {@code @SagaEventHandler} methods of {@code sagaType} (its superclasses and interfaces
     * too, and handlers annotated through a meta-annotation, as Axon finds them): the annotation's {@code payloadType}
     * when given, else the first parameter's type. A handler that takes a message, or nothing, takes any payload: it
     * makes the answer {@code Object}, so no type is skipped. A type left out here would never reach the saga.
     */
    public static Set<Class<?>> handledTypes(Class<?> sagaType) {
        Set<Class<?>> types = new HashSet<>();
        for (Method method : ReflectionUtils.methodsOf(sagaType)) {
            if (!AnnotationUtils.isAnnotationPresent(method, SagaEventHandler.class)) continue;
            Class<?> declared = AnnotationUtils.<Class<?>>findAnnotationAttribute(
                            method, SagaEventHandler.class, "payloadType")
                    .orElse(Object.class);
            Class<?> first = method.getParameterCount() > 0 ? method.getParameterTypes()[0] : Object.class;
            types.add(
                    declared != Object.class ? declared : Message.class.isAssignableFrom(first) ? Object.class : first);
        }
        return types.contains(Object.class) ? Set.of(Object.class) : Set.copyOf(types);
    }

    /**
     * The processor asks this once per segment for each event, one segment after the other on its coordinating
     * thread: the event's association values are worked out for the first and kept for the rest.
     */
    @Override
    public boolean canHandle(EventMessage<?> event, Segment segment) {
        Routed routed = lastRouted.get();
        if (routed == null || routed.event() != event) {
            routed = new Routed(event, super.canHandle(event, segment) ? extractAssociationValues(event) : Set.of());
            lastRouted.set(routed);
        }
        return routed.associations().stream().anyMatch(segment::matches);
    }

    /** An event and its association values (none when the saga has no handler for it). */
    private record Routed(EventMessage<?> event, Set<AssociationValue> associations) {}

    /** The event reached only its association's segment (see {@link #canHandle}): every saga it finds is ours. */
    @Override
    protected boolean matchesSegment(Segment segment, String sagaId) {
        return true;
    }
}
