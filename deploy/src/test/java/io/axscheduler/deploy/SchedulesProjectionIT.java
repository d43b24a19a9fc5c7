package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.clearInvocations;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.spy;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.job.RetryPolicy;
import io.axscheduler.api.schedule.FireKind;
import io.axscheduler.api.schedule.JobTemplate;
import io.axscheduler.api.schedule.MisfirePolicy;
import io.axscheduler.api.schedule.OverlapPolicy;
import io.axscheduler.api.schedule.ScheduleCreated;
import io.axscheduler.api.schedule.ScheduleFired;
import io.axscheduler.api.schedule.SchedulePaused;
import io.axscheduler.api.schedule.Trigger;
import io.axscheduler.query.BatchedRowWrites.RowBatch;
import io.axscheduler.query.schedule.SchedulesProjection;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.axonframework.eventhandling.AnnotationEventHandlerAdapter;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.namedparam.SqlParameterSource;

/**
 * The schedules projection's writes on a real server: what is bound, batched and checked. The projection is a second
 * instance over the node's database, its JDBC template watched (a spy: every statement still runs), and events reach
 * it through Axon's own handler adapter, with the timestamp the event message carries.
 */
class SchedulesProjectionIT {

    private static final Instant AT = Instant.parse("2026-11-30T12:00:00Z");
    private static final JobTemplate JOB =
            new JobTemplate("report", Map.of(), 0, RetryPolicy.defaults(), 60_000, null, null);

    static Node node;
    static NamedParameterJdbcTemplate jdbc;
    static AnnotationEventHandlerAdapter projection;

    @BeforeAll
    static void start() {
        // no scan loops: nothing but the test touches the schedules table
        node = Node.start(
                TestDatabase.freshDatabase("schedules_projection"),
                "node-a",
                Map.of("ax.scheduler.scan.enabled", "false"));
        jdbc = spy(node.bean(NamedParameterJdbcTemplate.class));
        projection = new AnnotationEventHandlerAdapter(new SchedulesProjection(jdbc, node.bean(ObjectMapper.class)));
    }

    @AfterAll
    static void stop() {
        if (node != null) node.close();
    }

    @BeforeEach
    void forgetEarlierStatements() {
        clearInvocations(jdbc);
    }

    private static void on(Object event, Instant at) throws Exception {
        projection.handle(new GenericEventMessage<>(UUID.randomUUID().toString(), event, Map.of(), at));
    }

    private static ScheduleCreated created(String scheduleId) {
        return new ScheduleCreated(
                scheduleId,
                "nightly " + scheduleId,
                Trigger.fixedRate(60_000),
                JOB,
                MisfirePolicy.FIRE_ONCE,
                OverlapPolicy.ALLOW,
                AT,
                AT.plusSeconds(60));
    }

    @Test
    void a_batch_of_schedules_created_in_one_unit_of_work_is_one_insert_batch_then_one_update_batch() throws Exception {
        DefaultUnitOfWork<?> unit = DefaultUnitOfWork.startAndGet(null);
        for (String id : List.of("s-1", "s-2", "s-3")) {
            on(created(id), AT);
            on(
                    new ScheduleFired(
                            id, AT.plusSeconds(60), FireKind.SCHEDULED, "job-" + id, AT.plusSeconds(120), "default"),
                    AT.plusSeconds(59));
        }
        verify(jdbc, never()).execute(anyString(), any(SqlParameterSource.class), any(RowBatch.class));
        unit.commit();

        ArgumentCaptor<RowBatch> batches = ArgumentCaptor.forClass(RowBatch.class);
        inOrder(jdbc).verify(jdbc, times(2)).execute(anyString(), any(SqlParameterSource.class), batches.capture());
        assertThat(batches.getAllValues().get(0).sql()).contains("INSERT INTO schedules");
        assertThat(batches.getAllValues().get(1).sql()).contains("fire_count = fire_count + 1");
        assertThat(batches.getAllValues())
                .allSatisfy(batch -> assertThat(batch.rows())
                        .extracting(r -> r.getValue("id"))
                        .containsExactly("s-1", "s-2", "s-3"));
        assertThat(batches.getAllValues().get(0).rows().get(0).getValue("next"))
                .isEqualTo(AT.plusSeconds(60).toEpochMilli());
        verify(jdbc, never()).update(anyString(), any(SqlParameterSource.class));
        assertThat(node.jdbc()
                        .queryForList(
                                "SELECT fire_count FROM schedules WHERE schedule_id IN ('s-1', 's-2', 's-3')",
                                Long.class))
                .containsExactly(1L, 1L, 1L);
    }

    @Test
    void a_batched_write_that_misses_its_row_fails_the_commit_and_names_the_schedule() throws Exception {
        on(created("p-1"), AT);
        DefaultUnitOfWork<?> unit = DefaultUnitOfWork.startAndGet(null);
        on(new SchedulePaused("p-1"), AT);
        // p-2 was never created: its row is missing, and the driver's count of the batch must say so
        on(new SchedulePaused("p-2"), AT);

        assertThatThrownBy(unit::commit)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("SchedulePaused")
                .hasMessageContaining("p-2");
    }

    @Test
    void a_batch_goes_to_mariadb_as_one_bulk_command_counted_as_a_whole() throws Exception {
        for (String id : List.of("b-1", "b-2")) on(created(id), AT);
        String sql = "UPDATE schedules SET updated_at = :at WHERE schedule_id = :id";
        List<SqlParameterSource> rows = List.of("b-1", "b-2", "b-9").stream()
                .<SqlParameterSource>map(id -> new MapSqlParameterSource("id", id).addValue("at", 1L))
                .toList();

        RowBatch.Counts counts =
                node.bean(NamedParameterJdbcTemplate.class).execute(sql, rows.get(0), new RowBatch(sql, rows));

        String server = node.jdbc().queryForObject("SELECT VERSION()", String.class);
        if (server.contains("MariaDB") && server.compareTo("11.5") < 0) {
            // the bulk command of MariaDB before 11.5 counts the batch, not its rows: b-9 is missing, so 2, not 3
            assertThat(counts.perRow()).isNull();
            assertThat(counts.total()).isEqualTo(2);
        } else {
            assertThat(counts.perRow()).containsExactly(1, 1, 0);
        }
    }

    @Test
    void a_batch_the_driver_splits_for_a_null_is_written_whole_and_passes_its_check() throws Exception {
        for (String id : List.of("n-1", "n-2", "n-3")) on(created(id), AT);
        DefaultUnitOfWork<?> unit = DefaultUnitOfWork.startAndGet(null);
        // a schedule with no next fire binds NULL where the others bind a number: the bulk command goes in parts, and
        // the driver's count is the first part's
        on(new ScheduleFired("n-1", AT.plusSeconds(60), FireKind.SCHEDULED, "job-n-1", null, "default"), AT);
        for (String id : List.of("n-2", "n-3")) {
            on(
                    new ScheduleFired(
                            id, AT.plusSeconds(60), FireKind.SCHEDULED, "job-" + id, AT.plusSeconds(120), "default"),
                    AT);
        }

        unit.commit();

        assertThat(node.jdbc()
                        .queryForList(
                                "SELECT COALESCE(next_fire_at, -1) FROM schedules WHERE schedule_id IN ('n-1', 'n-2', 'n-3')"
                                        + " ORDER BY schedule_id",
                                Long.class))
                .containsExactly(
                        -1L,
                        AT.plusSeconds(120).toEpochMilli(),
                        AT.plusSeconds(120).toEpochMilli());
    }

    @Test
    void outside_a_unit_of_work_a_write_runs_at_once_and_is_checked() {
        assertThatThrownBy(() -> on(new SchedulePaused("s-9"), AT))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("schedules: SchedulePaused of schedule s-9 changed 0 rows");
    }
}
