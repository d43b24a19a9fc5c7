package io.axscheduler.scheduler.saga;

import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.Segment;
import org.axonframework.modelling.saga.AnnotatedSagaManager;

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
 */
public class SegmentRoutedSagaManager<T> extends AnnotatedSagaManager<T> {

    public SegmentRoutedSagaManager(AnnotatedSagaManager.Builder<T> builder) {
        super(builder);
    }

    @Override
    public boolean canHandle(EventMessage<?> event, Segment segment) {
        return super.canHandle(event, segment) && extractAssociationValues(event).stream().anyMatch(segment::matches);
    }

    /** The event reached only its association's segment (see {@link #canHandle}): every saga it finds is ours. */
    @Override
    protected boolean matchesSegment(Segment segment, String sagaId) {
        return true;
    }
}
