package io.axscheduler.query.job;

import io.axscheduler.api.IsoInstants;
import io.axscheduler.api.job.JobCreated;
import io.axscheduler.api.problem.NotFoundException;
import io.axscheduler.query.history.EventStreams;
import java.time.Instant;
import java.util.List;
import org.axonframework.eventhandling.DomainEventMessage;
import org.springframework.stereotype.Component;

/** A job's history replayed from the event store, whole or folded up to a moment. */
@Component
public class JobHistory {

    private final EventStreams streams;

    public JobHistory(EventStreams streams) {
        this.streams = streams;
    }

    public JobHistoryView replay(String jobId) {
        return new JobHistoryView(jobId, streams.render(streams.read("job", jobId, JobCreated.class)));
    }

    public JobStateAsOf replayUntil(String jobId, Instant asOf) {
        List<DomainEventMessage<?>> events = streams.read("job", jobId, JobCreated.class).stream()
                .filter(event -> !event.getTimestamp().isAfter(asOf))
                .toList();
        if (events.isEmpty()) {
            throw new NotFoundException("job", jobId + " as of " + IsoInstants.millis(asOf));
        }
        var state = JobStateFold.fold(events.stream()
                .map(event -> new TimedEvent(event.getPayload(), event.getTimestamp(), (String)
                        event.getMetaData().get(io.axscheduler.api.Metadata.ACTOR)))
                .toList());
        return new JobStateAsOf(jobId, asOf, state, streams.render(events));
    }
}
