package io.axscheduler.query.job;

import static io.axscheduler.query.job.JobEvents.CREATED_AT;
import static io.axscheduler.query.job.JobEvents.JOB_ID;
import static io.axscheduler.query.job.JobEvents.at;
import static io.axscheduler.query.job.JobEvents.created;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.axscheduler.api.job.JobClaimed;
import io.axscheduler.api.job.JobStatus;
import io.axscheduler.api.problem.NotFoundException;
import io.axscheduler.query.history.EventStreams;
import io.axscheduler.query.history.HistoryEvent;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EmbeddedEventStore;
import org.axonframework.eventsourcing.eventstore.inmemory.InMemoryEventStorageEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class JobHistoryTest {

    private final InMemoryEventStorageEngine storage = new InMemoryEventStorageEngine();
    private final ObjectMapper objectMapper = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    private EmbeddedEventStore eventStore;
    private JobHistory history;

    @BeforeEach
    void setUp() {
        eventStore = EmbeddedEventStore.builder().storageEngine(storage).build();
        history =
                new JobHistory(new EventStreams(eventStore, objectMapper, null)); // a job's history pages by no offset
        append(
                JOB_ID,
                0,
                created(),
                CREATED_AT,
                Map.of("actor", "alice", "node", "node-a", "correlationId", "c-1", "traceId", "t-1"));
        append(JOB_ID, 1, new JobClaimed(JOB_ID, 1, "node-b", at(60)), at(10), Map.of("actor", "scheduler"));
    }

    @AfterEach
    void tearDown() {
        eventStore.shutDown();
    }

    private void append(String aggregateId, long sequence, Object payload, Instant at, Map<String, ?> metadata) {
        storage.appendEvents(new GenericDomainEventMessage<>(
                "Job",
                aggregateId,
                sequence,
                payload,
                metadata,
                UUID.randomUUID().toString(),
                at));
    }

    @Test
    void the_history_lists_every_event_in_order_with_type_timestamp_payload_and_metadata() {
        JobHistoryView view = history.replay(JOB_ID);

        assertThat(view.jobId()).isEqualTo(JOB_ID);
        assertThat(view.events()).extracting(HistoryEvent::sequence).containsExactly(0L, 1L);
        assertThat(view.events()).extracting(HistoryEvent::type).containsExactly("JobCreated", "JobClaimed");
        HistoryEvent first = view.events().get(0);
        assertThat(first.timestamp()).isEqualTo(CREATED_AT);
        assertThat(first.payload().get("jobType").asText()).isEqualTo("noop");
        assertThat(first.payload().get("runAt").asText()).isEqualTo("2026-11-30T10:05:00.250Z");
        assertThat(first.payload().get("params").get("orderNo").asText()).isEqualTo("42");
        assertThat(first.metadata())
                .containsExactly(
                        Map.entry("actor", "alice"), Map.entry("node", "node-a"),
                        Map.entry("correlationId", "c-1"), Map.entry("traceId", "t-1"));
    }

    @Test
    void metadata_keys_of_the_contract_are_present_even_when_an_event_lacks_them() {
        HistoryEvent claimed = history.replay(JOB_ID).events().get(1);

        assertThat(claimed.metadata()).containsKeys("actor", "node", "correlationId");
        assertThat(claimed.metadata().get("node")).isNull();
    }

    @Test
    void as_of_folds_only_the_events_at_or_before_that_instant() {
        JobStateAsOf beforeClaim = history.replayUntil(JOB_ID, at(9));
        JobStateAsOf atClaim = history.replayUntil(JOB_ID, at(10));

        assertThat(beforeClaim.state().status()).isEqualTo(JobStatus.WAITING);
        assertThat(beforeClaim.events()).extracting(HistoryEvent::type).containsExactly("JobCreated");
        assertThat(atClaim.state().status()).isEqualTo(JobStatus.CLAIMED);
        assertThat(atClaim.events()).hasSize(2);
        assertThat(atClaim.asOf()).isEqualTo(at(10));
    }

    @Test
    void as_of_before_the_job_existed_is_not_found() {
        assertThatThrownBy(() -> history.replayUntil(JOB_ID, CREATED_AT.minusMillis(1)))
                .isInstanceOf(NotFoundException.class);
    }

    @Test
    void an_id_with_no_events_is_not_found() {
        assertThatThrownBy(() -> history.replay("no-such-job")).isInstanceOf(NotFoundException.class);
    }

    @Test
    void an_id_of_another_aggregate_is_not_a_job() {
        append("schedule-9", 0, "ScheduleCreated stand-in", CREATED_AT, Map.of());

        assertThatThrownBy(() -> history.replay("schedule-9")).isInstanceOf(NotFoundException.class);
    }
}
