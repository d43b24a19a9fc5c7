package io.axscheduler.query.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyMap;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.ArgumentMatchers.startsWith;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.job.Backoff;
import io.axscheduler.api.job.JobClaimed;
import io.axscheduler.api.job.JobCreated;
import io.axscheduler.api.job.RetryPolicy;
import io.axscheduler.query.job.JobQueueProjection;
import java.time.Instant;
import java.util.Map;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventsourcing.eventstore.inmemory.InMemoryEventStorageEngine;
import org.junit.jupiter.api.Test;
import org.mockito.InOrder;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.namedparam.SqlParameterSource;
import org.springframework.transaction.PlatformTransactionManager;

class RebuildJobQueueTest {

    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    private final InMemoryEventStorageEngine storage = new InMemoryEventStorageEngine();
    private final NamedParameterJdbcTemplate jdbc = mock(NamedParameterJdbcTemplate.class);
    private final PlatformTransactionManager transactions = mock(PlatformTransactionManager.class);
    private final RebuildJobQueue rebuild =
            new RebuildJobQueue(storage, new JobQueueProjection(jdbc, new ObjectMapper()), jdbc, transactions);

    private void append(String aggregateId, long sequence, Object payload) {
        storage.appendEvents(new GenericDomainEventMessage<>(
                "Job",
                aggregateId,
                sequence,
                payload,
                Map.of(),
                aggregateId + "-" + sequence,
                T0.plusSeconds(sequence)));
    }

    private static JobCreated created(String jobId) {
        return new JobCreated(
                jobId, null, "noop", Map.of(), 0, T0, new RetryPolicy(0, Backoff.defaults()), 1_000, null, null, null);
    }

    @Test
    void it_clears_the_table_then_replays_only_job_events_in_one_committed_transaction() {
        append("job-1", 0, created("job-1"));
        append("job-1", 1, new JobClaimed("job-1", 1, "node-a", T0.plusSeconds(30)));
        append("schedule-1", 0, "not a job event");
        append("job-2", 0, created("job-2"));
        when(jdbc.update(anyString(), any(SqlParameterSource.class))).thenReturn(1);
        when(jdbc.queryForObject(anyString(), anyMap(), eq(Long.class))).thenReturn(2L);

        RebuildResult result = rebuild.rebuild();

        assertThat(result).isEqualTo(new RebuildResult(3, 2));
        InOrder order = inOrder(jdbc, transactions);
        order.verify(transactions).getTransaction(any());
        order.verify(jdbc).update(eq("DELETE FROM job_queue"), anyMap());
        order.verify(jdbc, times(3)).update(anyString(), any(SqlParameterSource.class));
        order.verify(transactions).commit(any());
    }

    @Test
    void a_failing_event_rolls_the_whole_rebuild_back() {
        append("job-1", 0, new JobClaimed("job-1", 1, "node-a", T0));
        when(jdbc.update(startsWith("UPDATE"), any(SqlParameterSource.class))).thenReturn(0);

        assertThatThrownBy(rebuild::rebuild).isInstanceOf(IllegalStateException.class);

        verify(transactions).rollback(any());
        verify(transactions, never()).commit(any());
    }
}
