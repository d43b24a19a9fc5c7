package io.axscheduler.query.job;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.Metadata;
import io.axscheduler.api.job.JobCreated;
import io.axscheduler.api.problem.NotFoundException;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.springframework.stereotype.Component;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Replays a job's stream from the event store, not from a read model: the audit must not depend on a projection. */
@Component
public class JobHistory {

    static final String CORRELATION_ID = "correlationId";

    private final EventStore eventStore;
    private final ObjectMapper objectMapper;

    public JobHistory(EventStore eventStore, ObjectMapper objectMapper) {
        this.eventStore = eventStore;
        this.objectMapper = objectMapper;
    }

    public JobHistoryView replay(String jobId) {
        return new JobHistoryView(jobId, render(read(jobId)));
    }

    public JobStateAsOf replayUntil(String jobId, Instant asOf) {
        List<DomainEventMessage<?>> events = read(jobId).stream()
                .filter(event -> !event.getTimestamp().isAfter(asOf))
                .toList();
        if (events.isEmpty()) {
            throw new NotFoundException("job", jobId + " as of " + asOf);
        }
        var state = JobStateFold.fold(events.stream()
                .map(event -> new TimedEvent(event.getPayload(), event.getTimestamp()))
                .toList());
        return new JobStateAsOf(jobId, asOf, state, render(events));
    }

    private List<DomainEventMessage<?>> read(String jobId) {
        // From sequence 0: readEvents(id) would start at the latest snapshot and hide the events before it.
        List<DomainEventMessage<?>> events = eventStore.readEvents(jobId, 0L).asStream()
                .<DomainEventMessage<?>>map(event -> event)
                .toList();
        // Other aggregates (schedules) share the store; their ids are not jobs.
        if (events.isEmpty() || !(events.get(0).getPayload() instanceof JobCreated)) {
            throw new NotFoundException("job", jobId);
        }
        return events;
    }

    private List<HistoryEvent> render(List<DomainEventMessage<?>> events) {
        return events.stream()
                .map(event -> new HistoryEvent(event.getSequenceNumber(), event.getPayloadType().getSimpleName(),
                        event.getTimestamp(), objectMapper.valueToTree(event.getPayload()), metadata(event)))
                .toList();
    }

    // The contract names actor, node and correlationId; they come first and are present even when an old event
    // lacks them, so clients can rely on the keys.
    private static Map<String, Object> metadata(DomainEventMessage<?> event) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put(Metadata.ACTOR, event.getMetaData().get(Metadata.ACTOR));
        metadata.put(Metadata.NODE, event.getMetaData().get(Metadata.NODE));
        metadata.put(CORRELATION_ID, event.getMetaData().get(CORRELATION_ID));
        event.getMetaData().forEach(metadata::putIfAbsent);
        return metadata;
    }
}
