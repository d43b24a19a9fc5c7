package io.axscheduler.query.admin;

import io.axscheduler.query.job.JobQueueProjection;
import java.util.Iterator;
import java.util.Map;
import java.util.stream.Stream;
import org.axonframework.eventhandling.AnnotationEventHandlerAdapter;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Rebuilds job_queue from the event store: clears it, then replays every job event through the projection's own
 * handlers, so a rebuilt row means exactly what a live one means. One transaction, so readers see the old table or
 * the new one, never half of it, and a failure leaves the old one in place.
 *
 * <p>Run it while nodes are quiet (no submits, scans or runs): events appended by transactions that commit during
 * the replay may be missed by the read, and the live projection's updates would then hit rows the rebuild has not
 * written yet, failing those commands. The transaction also holds locks on the whole table until it ends.
 */
@Component
public class RebuildJobQueue implements ProjectionRebuild {

    private final EventStorageEngine storageEngine;
    private final JobQueueProjection projection;
    private final NamedParameterJdbcTemplate jdbc;
    private final TransactionTemplate transaction;

    public RebuildJobQueue(
            EventStorageEngine storageEngine,
            JobQueueProjection projection,
            NamedParameterJdbcTemplate jdbc,
            PlatformTransactionManager transactionManager) {
        this.storageEngine = storageEngine;
        this.projection = projection;
        this.jdbc = jdbc;
        this.transaction = new TransactionTemplate(transactionManager);
    }

    @Override
    public String name() {
        return JobQueueProjection.PROCESSING_GROUP;
    }

    @Override
    public RebuildResult rebuild() {
        return transaction.execute(status -> replayAll());
    }

    private RebuildResult replayAll() {
        AnnotationEventHandlerAdapter handlers = new AnnotationEventHandlerAdapter(projection);
        handlers.prepareReset();
        long events = 0;
        // mayBlock=false: the stream ends at the current head instead of waiting for new events forever
        try (Stream<? extends TrackedEventMessage<?>> stream = storageEngine.readEvents(null, false)) {
            Iterator<? extends TrackedEventMessage<?>> all = stream.iterator();
            while (all.hasNext()) {
                TrackedEventMessage<?> event = all.next();
                if (handlers.canHandle(event)) {
                    handle(handlers, event);
                    events++;
                }
            }
        }
        Long jobs = jdbc.queryForObject("SELECT COUNT(*) FROM job_queue", Map.of(), Long.class);
        return new RebuildResult(events, jobs == null ? 0 : jobs);
    }

    private static void handle(AnnotationEventHandlerAdapter handlers, EventMessage<?> event) {
        try {
            handlers.handle(event);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(
                    "replaying " + event.getPayloadType().getSimpleName() + " failed", e);
        }
    }
}
