package io.axscheduler.query.schedule;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.Metadata;
import io.axscheduler.api.problem.NotFoundException;
import io.axscheduler.api.schedule.ScheduleCreated;
import io.axscheduler.query.job.HistoryEvent;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.springframework.stereotype.Component;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Replays a schedule's stream from the event store: every edit, pause, fire and skip, with who and where. */
@Component
public class ScheduleHistory {

    private final EventStore eventStore;
    private final ObjectMapper objectMapper;

    public ScheduleHistory(EventStore eventStore, ObjectMapper objectMapper) {
        this.eventStore = eventStore;
        this.objectMapper = objectMapper;
    }

    public ScheduleHistoryView replay(String scheduleId) {
        List<DomainEventMessage<?>> events = eventStore.readEvents(scheduleId, 0L).asStream()
                .<DomainEventMessage<?>>map(event -> event)
                .toList();
        if (events.isEmpty() || !(events.get(0).getPayload() instanceof ScheduleCreated)) {
            throw new NotFoundException("schedule", scheduleId);
        }
        return new ScheduleHistoryView(scheduleId, events.stream()
                .map(event -> new HistoryEvent(event.getSequenceNumber(), event.getPayloadType().getSimpleName(),
                        event.getTimestamp(), objectMapper.valueToTree(event.getPayload()), metadata(event)))
                .toList());
    }

    private static Map<String, Object> metadata(DomainEventMessage<?> event) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put(Metadata.ACTOR, event.getMetaData().get(Metadata.ACTOR));
        metadata.put(Metadata.NODE, event.getMetaData().get(Metadata.NODE));
        metadata.put("correlationId", event.getMetaData().get("correlationId"));
        event.getMetaData().forEach(metadata::putIfAbsent);
        return metadata;
    }
}
