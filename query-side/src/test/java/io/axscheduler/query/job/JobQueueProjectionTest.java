package io.axscheduler.query.job;

import static io.axscheduler.query.job.JobEvents.CREATED_AT;
import static io.axscheduler.query.job.JobEvents.JOB_ID;
import static io.axscheduler.query.job.JobEvents.RUN_AT;
import static io.axscheduler.query.job.JobEvents.at;
import static io.axscheduler.query.job.JobEvents.created;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyMap;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.job.JobCanceled;
import io.axscheduler.api.job.JobClaimed;
import io.axscheduler.api.job.JobFailed;
import io.axscheduler.api.job.JobStarted;
import io.axscheduler.api.job.JobStatus;
import io.axscheduler.api.job.JobSucceeded;
import io.axscheduler.api.job.JobTimedOut;
import io.axscheduler.api.job.RetryPolicy;
import io.axscheduler.api.job.TimeoutPhase;
import io.axscheduler.query.BatchedRowWrites.RowBatch;
import java.util.List;
import java.util.Map;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.namedparam.SqlParameterSource;

/** The SQL itself runs against a real server in deploy's integration tests; here, what is bound and checked. */
class JobQueueProjectionTest {

    private final NamedParameterJdbcTemplate jdbc = mock(NamedParameterJdbcTemplate.class);
    private final JobQueueProjection projection = new JobQueueProjection(jdbc, new ObjectMapper());

    private SqlParameterSource insertedWith(Object params) {
        when(jdbc.update(anyString(), any(SqlParameterSource.class))).thenReturn(1);
        projection.on(created(params == null ? null : Map.of("orderNo", params)), CREATED_AT);
        ArgumentCaptor<SqlParameterSource> bound = ArgumentCaptor.forClass(SqlParameterSource.class);
        verify(jdbc).update(anyString(), bound.capture());
        return bound.getValue();
    }

    @Test
    void a_created_job_is_inserted_claimable_with_epoch_millis_and_negated_priority() {
        SqlParameterSource bound = insertedWith("42");

        assertThat(bound.getValue("runAt")).isEqualTo(RUN_AT.toEpochMilli());
        assertThat(bound.getValue("at")).isEqualTo(CREATED_AT.toEpochMilli());
        assertThat(bound.getValue("negPriority")).isEqualTo(-7);
        assertThat(bound.getValue("maxRetries")).isEqualTo(3);
        assertThat(bound.getValue("params")).isEqualTo("{\"orderNo\":\"42\"}");
    }

    @Test
    void a_job_without_params_stores_null_rather_than_an_empty_object() {
        SqlParameterSource bound = insertedWith(null);

        assertThat(bound.getValue("params")).isNull();
    }

    @Test
    void an_update_that_finds_no_row_fails_so_the_event_append_rolls_back() {
        when(jdbc.update(anyString(), anyMap())).thenReturn(0);

        assertThatThrownBy(() -> projection.on(new JobCanceled(JOB_ID, "stop", JobStatus.WAITING), "key:ops", at(1)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("JobCanceled")
                .hasMessageContaining(JOB_ID);
    }

    @Test
    void an_update_that_changes_more_than_one_row_fails_too() {
        when(jdbc.update(anyString(), any(SqlParameterSource.class))).thenReturn(2);

        assertThatThrownBy(() -> projection.on(new JobFailed(JOB_ID, 1, "boom", 1), at(1)))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void a_run_timeout_records_which_attempt_timed_out() {
        when(jdbc.update(anyString(), any(SqlParameterSource.class))).thenReturn(1);

        projection.on(new JobTimedOut(JOB_ID, 2, TimeoutPhase.RUN), at(5));

        ArgumentCaptor<SqlParameterSource> bound = ArgumentCaptor.forClass(SqlParameterSource.class);
        verify(jdbc).update(anyString(), bound.capture());
        assertThat(bound.getValue().getValue("status")).isEqualTo("TIMED_OUT");
        assertThat(bound.getValue().getValue("lastError")).isEqualTo("attempt 2 timed out");
    }

    @Test
    void a_long_error_is_cut_to_the_column_size_before_it_is_written() {
        when(jdbc.update(anyString(), any(SqlParameterSource.class))).thenReturn(1);

        projection.on(new JobFailed(JOB_ID, 1, "e".repeat(3_000), 1), at(5));

        ArgumentCaptor<SqlParameterSource> bound = ArgumentCaptor.forClass(SqlParameterSource.class);
        verify(jdbc).update(eq("""
                UPDATE job_queue SET status = :status, claimable = :claimable, last_error = :lastError, updated_at = :at,
                                     waiting_app = CASE WHEN :claimable = 1 THEN executor_app END,
                                     ended_at = :at
                WHERE job_id = :jobId"""), bound.capture());
        assertThat((String) bound.getValue().getValue("lastError")).hasSize(2_000);
    }

    @Test
    void inside_a_unit_of_work_each_jobs_writes_keep_their_order_and_each_statement_goes_as_one_batch() {
        answerBatches(new RowBatch.Counts(new int[] {1, 1}, 2));
        DefaultUnitOfWork<?> unit = DefaultUnitOfWork.startAndGet(null);
        for (String job : List.of("job-1", "job-2")) {
            projection.on(new JobStarted(job, 1, "node-a", "in-process", 60_000, RetryPolicy.defaults()), at(1));
            projection.on(new JobSucceeded(job, 1, "ok", 3, "in-process"), at(2));
        }
        unit.commit();

        ArgumentCaptor<RowBatch> batches = ArgumentCaptor.forClass(RowBatch.class);
        inOrder(jdbc).verify(jdbc, times(2)).execute(anyString(), any(SqlParameterSource.class), batches.capture());
        assertThat(batches.getAllValues().get(0).rows())
                .allSatisfy(r -> assertThat(r.getValue("status")).isEqualTo("RUNNING"));
        assertThat(batches.getAllValues().get(1).rows())
                .allSatisfy(r -> assertThat(r.getValue("status")).isEqualTo("SUCCEEDED"));
        assertThat(batches.getAllValues())
                .allSatisfy(batch -> assertThat(batch.rows())
                        .extracting(r -> r.getValue("jobId"))
                        .containsExactly("job-1", "job-2"));
    }

    @Test
    void a_start_in_the_unit_of_work_of_its_claim_replaces_the_claims_write() {
        answerBatches(new RowBatch.Counts(new int[] {1, 1}, 2));
        DefaultUnitOfWork<?> claimBatch = DefaultUnitOfWork.startAndGet(null);
        for (String job : List.of("job-1", "job-2")) {
            projection.on(new JobClaimed(job, 1, "node-a", at(30)), at(1));
            projection.on(new JobStarted(job, 1, "node-a", "in-process", 60_000, RetryPolicy.defaults()), at(1));
        }
        claimBatch.commit();

        ArgumentCaptor<RowBatch> batch = ArgumentCaptor.forClass(RowBatch.class);
        verify(jdbc).execute(anyString(), any(SqlParameterSource.class), batch.capture());
        assertThat(batch.getValue().rows())
                .allSatisfy(r -> assertThat(r.getValue("status")).isEqualTo("RUNNING"));
        verify(jdbc, never()).update(anyString(), any(SqlParameterSource.class));
    }

    @Test
    void a_job_created_claimed_and_started_in_one_unit_of_work_is_inserted_once_already_running() {
        when(jdbc.update(anyString(), any(SqlParameterSource.class))).thenReturn(1);
        DefaultUnitOfWork<?> fire = DefaultUnitOfWork.startAndGet(null);
        projection.on(created(), CREATED_AT);
        projection.on(new JobClaimed(JOB_ID, 1, "node-a", at(30)), at(1));
        projection.on(new JobStarted(JOB_ID, 1, "node-a", "in-process", 60_000, RetryPolicy.defaults()), at(1));
        fire.commit();

        ArgumentCaptor<String> sql = ArgumentCaptor.forClass(String.class);
        ArgumentCaptor<SqlParameterSource> bound = ArgumentCaptor.forClass(SqlParameterSource.class);
        verify(jdbc).update(sql.capture(), bound.capture());
        verify(jdbc, never()).execute(anyString(), any(SqlParameterSource.class), any(RowBatch.class));
        assertThat(sql.getValue()).startsWith("INSERT INTO job_queue").contains("worker", "lease_until");
        SqlParameterSource row = bound.getValue();
        assertThat(row.getValue("status")).isEqualTo("RUNNING");
        assertThat(row.getValue("claimable")).isEqualTo(0);
        assertThat(row.getValue("attempt")).isEqualTo(1);
        assertThat(row.getValue("node")).isEqualTo("node-a");
        assertThat(row.getValue("worker")).isEqualTo("in-process");
        assertThat(row.getValue("leaseUntil")).isNull();
        assertThat(row.getValue("createdAt")).isEqualTo(CREATED_AT.toEpochMilli());
        assertThat(row.getValue("at")).isEqualTo(at(1).toEpochMilli());
        assertThat(row.getValue("runAt")).isEqualTo(RUN_AT.toEpochMilli());
    }

    @Test
    void a_job_created_and_claimed_in_one_unit_of_work_is_inserted_claimed_with_its_lease() {
        when(jdbc.update(anyString(), any(SqlParameterSource.class))).thenReturn(1);
        DefaultUnitOfWork<?> unit = DefaultUnitOfWork.startAndGet(null);
        projection.on(created(), CREATED_AT);
        projection.on(new JobClaimed(JOB_ID, 1, "node-a", at(30)), at(1));
        unit.commit();

        ArgumentCaptor<SqlParameterSource> bound = ArgumentCaptor.forClass(SqlParameterSource.class);
        verify(jdbc).update(anyString(), bound.capture());
        SqlParameterSource row = bound.getValue();
        assertThat(row.getValue("status")).isEqualTo("CLAIMED");
        assertThat(row.getValue("attempt")).isEqualTo(0);
        assertThat(row.getValue("worker")).isNull();
        assertThat(row.getValue("leaseUntil")).isEqualTo(at(30).toEpochMilli());
    }

    @Test
    void a_batch_counted_short_as_a_whole_fails_when_a_row_is_missing_and_names_it() {
        answerBatches(new RowBatch.Counts(null, 1));
        when(jdbc.queryForList(anyString(), anyMap(), eq(String.class))).thenReturn(List.of("job-1"));
        DefaultUnitOfWork<?> unit = DefaultUnitOfWork.startAndGet(null);
        for (String job : List.of("job-1", "job-2"))
            projection.on(new JobSucceeded(job, 1, "ok", 3, "in-process"), at(2));

        assertThatThrownBy(unit::commit)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("job_queue: JobSucceeded of job [job-2] in a batch of 2 changed no row");
    }

    @Test
    void a_short_count_of_a_batch_the_driver_split_passes_when_every_row_is_there() {
        answerBatches(new RowBatch.Counts(null, 1));
        when(jdbc.queryForList(anyString(), anyMap(), eq(String.class))).thenReturn(List.of("job-2", "job-1"));
        DefaultUnitOfWork<?> unit = DefaultUnitOfWork.startAndGet(null);
        for (String job : List.of("job-1", "job-2"))
            projection.on(new JobSucceeded(job, 1, "ok", 3, "in-process"), at(2));

        unit.commit();
        verify(jdbc)
                .queryForList(
                        eq("SELECT job_id FROM job_queue WHERE job_id IN (:ids)"),
                        eq(Map.of("ids", List.of("job-1", "job-2"))),
                        eq(String.class));
    }

    @Test
    void a_batch_counted_in_full_reads_no_rows_back() {
        answerBatches(new RowBatch.Counts(null, 2));
        DefaultUnitOfWork<?> unit = DefaultUnitOfWork.startAndGet(null);
        for (String job : List.of("job-1", "job-2"))
            projection.on(new JobSucceeded(job, 1, "ok", 3, "in-process"), at(2));

        unit.commit();
        verify(jdbc, never()).queryForList(anyString(), anyMap(), eq(String.class));
    }

    private void answerBatches(RowBatch.Counts counts) {
        when(jdbc.execute(anyString(), any(SqlParameterSource.class), any(RowBatch.class)))
                .thenReturn(counts);
    }
}
