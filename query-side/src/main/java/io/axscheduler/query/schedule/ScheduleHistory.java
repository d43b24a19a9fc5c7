package io.axscheduler.query.schedule;

import io.axscheduler.api.schedule.ScheduleCreated;
import io.axscheduler.query.history.EventStreams;
import java.util.List;
import org.axonframework.eventhandling.DomainEventMessage;
import org.springframework.stereotype.Component;

/** Replays a schedule's stream from the event store: every edit, pause, fire and skip, with who and where. */
@Component
public class ScheduleHistory {

    private final EventStreams streams;

    public ScheduleHistory(EventStreams streams) {
        this.streams = streams;
    }

    public static final int DEFAULT_SIZE = 100;
    public static final int MAX_SIZE = 500;

    /**
     * Events {@code page × size} to {@code page × size + size - 1} of the stream, read from the store and no more. Counted
     * in events, not sequence numbers: the retention leaves gaps in a schedule's (its old fire records).
     */
    public ScheduleHistoryView replay(String scheduleId, int page, int size) {
        Long first = streams.sequenceAt(scheduleId, (long) page * size);
        // past the end: a page that reads nothing (an unknown schedule is still a 404)
        long from = first == null ? Long.MAX_VALUE : first;
        List<DomainEventMessage<?>> events =
                streams.readPage("schedule", scheduleId, ScheduleCreated.class, from, size + 1);
        boolean hasMore = events.size() > size;
        return new ScheduleHistoryView(
                scheduleId, page, size, hasMore, streams.render(hasMore ? events.subList(0, size) : events));
    }
}
