package io.axscheduler.query.schedule;

import io.axscheduler.api.schedule.ScheduleCreated;
import io.axscheduler.query.history.EventStreams;
import org.springframework.stereotype.Component;

/** Replays a schedule's stream from the event store: every edit, pause, fire and skip, with who and where. */
@Component
public class ScheduleHistory {

    private final EventStreams streams;

    public ScheduleHistory(EventStreams streams) {
        this.streams = streams;
    }

    public ScheduleHistoryView replay(String scheduleId) {
        return new ScheduleHistoryView(
                scheduleId, streams.render(streams.read("schedule", scheduleId, ScheduleCreated.class)));
    }
}
