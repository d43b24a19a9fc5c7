package io.axscheduler.axonmysql.processing;

import java.lang.reflect.Field;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.BiFunction;
import org.axonframework.eventhandling.Segment;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventhandling.pooled.PooledStreamingEventProcessor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives the work packages of an Axon pooled processor a queue whose size is a counter.
 *
 * <p>The processor's coordinator reads the next event only while every work package's queue holds fewer than 1,024
 * entries, and asks so before each event: {@code ConcurrentLinkedQueue.size()}, which walks the queue. Every event goes
 * to every segment's package, so when the packages lag, each event read costs a walk over up to four full queues. With
 * many schedules firing, that walk cost more than the claim scan (docs/benchmark.md).
 * A {@link LinkedBlockingQueue} keeps its count; a work package only adds, polls and asks {@code isEmpty} and
 * {@code size}, which it does with the same thread safety.
 *
 * <p>Axon 4.13 has no setting for that queue (the work package class is package-private, its queue a private final
 * field filled in its constructor), so the coordinator's work package factory is wrapped, by reflection, before the
 * processor starts: each package gets the counted queue before the coordinator hands it its first event. If an Axon
 * upgrade moves those fields, the processor keeps Axon's queue (slower, equally correct), a warning says so, and
 * {@code CountedWorkQueuesTest} and {@code SagaStoreIT} fail.
 */
public final class CountedWorkQueues {

    private static final Logger log = LoggerFactory.getLogger(CountedWorkQueues.class);
    private static final String WORK_PACKAGE = "org.axonframework.eventhandling.pooled.WorkPackage";

    private CountedWorkQueues() {}

    /** Wraps the processor's work package factory; true when done. Call before the processor starts. */
    public static boolean install(PooledStreamingEventProcessor processor) {
        try {
            Object coordinator = coordinatorOf(processor);
            Field factory = accessible(coordinator.getClass().getDeclaredField("workPackageFactory"));
            Field queue = workQueueField();
            @SuppressWarnings("unchecked")
            BiFunction<Segment, TrackingToken, Object> axons =
                    (BiFunction<Segment, TrackingToken, Object>) factory.get(coordinator);
            BiFunction<Segment, TrackingToken, Object> counted = (segment, token) -> {
                Object workPackage = axons.apply(segment, token);
                try {
                    queue.set(workPackage, new LinkedBlockingQueue<>());
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(
                            "work package queue of " + processor.getName() + " not replaceable", e);
                }
                return workPackage;
            };
            factory.set(coordinator, counted);
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            log.warn(
                    "processor {} keeps Axon's work package queues, whose size() walks the queue for every event: {}",
                    processor.getName(),
                    e.toString());
            return false;
        }
    }

    /** The queues of the work packages the processor runs now, by segment id (for tests). */
    public static Map<Integer, Queue<?>> queues(PooledStreamingEventProcessor processor)
            throws ReflectiveOperationException {
        Object coordinator = coordinatorOf(processor);
        Map<?, ?> packages = (Map<?, ?>) accessible(coordinator.getClass().getDeclaredField("workPackages"))
                .get(coordinator);
        Field queue = workQueueField();
        Map<Integer, Queue<?>> queues = new TreeMap<>();
        for (Map.Entry<?, ?> entry : packages.entrySet()) {
            queues.put((Integer) entry.getKey(), (Queue<?>) queue.get(entry.getValue()));
        }
        return queues;
    }

    private static Object coordinatorOf(PooledStreamingEventProcessor processor) throws ReflectiveOperationException {
        return accessible(PooledStreamingEventProcessor.class.getDeclaredField("coordinator"))
                .get(processor);
    }

    private static Field workQueueField() throws ReflectiveOperationException {
        return accessible(Class.forName(WORK_PACKAGE).getDeclaredField("processingQueue"));
    }

    private static Field accessible(Field field) {
        field.setAccessible(true);
        return field;
    }
}
