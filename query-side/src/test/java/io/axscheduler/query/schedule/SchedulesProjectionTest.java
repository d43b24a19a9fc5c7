package io.axscheduler.query.schedule;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.axscheduler.api.job.RetryPolicy;
import io.axscheduler.api.schedule.FireKind;
import io.axscheduler.api.schedule.JobTemplate;
import io.axscheduler.api.schedule.MisfirePolicy;
import io.axscheduler.api.schedule.OverlapPolicy;
import io.axscheduler.api.schedule.ScheduleCreated;
import io.axscheduler.api.schedule.ScheduleFired;
import io.axscheduler.api.schedule.SchedulePaused;
import io.axscheduler.api.schedule.Trigger;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.namedparam.SqlParameterSource;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/** The SQL itself runs against a real server in deploy's integration tests; here, what is bound, batched and checked. */
class SchedulesProjectionTest {

    private static final Instant AT = Instant.parse("2026-11-30T12:00:00Z");
    private static final JobTemplate JOB = new JobTemplate("report", Map.of(), 0, RetryPolicy.defaults(), 60_000, null, null);

    private final NamedParameterJdbcTemplate jdbc = mock(NamedParameterJdbcTemplate.class);
    private final SchedulesProjection projection = new SchedulesProjection(jdbc, new ObjectMapper().registerModule(new JavaTimeModule()));

    private static ScheduleCreated created(String scheduleId) {
        return new ScheduleCreated(scheduleId, "nightly " + scheduleId, Trigger.fixedRate(60_000), JOB, MisfirePolicy.FIRE_ONCE,
                OverlapPolicy.ALLOW, AT, AT.plusSeconds(60));
    }

    @Test
    void a_batch_of_schedules_created_in_one_unit_of_work_is_one_insert_batch_then_one_update_batch() {
        when(jdbc.batchUpdate(anyString(), any(SqlParameterSource[].class))).thenReturn(new int[] {1, 1, 1});
        DefaultUnitOfWork<?> unit = DefaultUnitOfWork.startAndGet(null);
        for (String id : List.of("s-1", "s-2", "s-3")) {
            projection.on(created(id), AT);
            projection.on(new ScheduleFired(id, AT.plusSeconds(60), FireKind.SCHEDULED, "job-" + id, AT.plusSeconds(120)), AT.plusSeconds(59));
        }
        verify(jdbc, never()).batchUpdate(anyString(), any(SqlParameterSource[].class));
        unit.commit();

        ArgumentCaptor<String> sql = ArgumentCaptor.forClass(String.class);
        ArgumentCaptor<SqlParameterSource[]> rows = ArgumentCaptor.forClass(SqlParameterSource[].class);
        inOrder(jdbc).verify(jdbc, times(2)).batchUpdate(sql.capture(), rows.capture());
        assertThat(sql.getAllValues().get(0)).contains("INSERT INTO schedules");
        assertThat(sql.getAllValues().get(1)).contains("fire_count = fire_count + 1");
        assertThat(rows.getAllValues()).allSatisfy(batch -> assertThat(batch).extracting(r -> r.getValue("id"))
                .containsExactly("s-1", "s-2", "s-3"));
        assertThat(rows.getAllValues().get(0)[0].getValue("next")).isEqualTo(AT.plusSeconds(60).toEpochMilli());
        verify(jdbc, never()).update(anyString(), any(SqlParameterSource.class));
    }

    @Test
    void a_batched_write_that_misses_its_row_fails_the_commit_and_names_the_schedule() {
        when(jdbc.batchUpdate(anyString(), any(SqlParameterSource[].class))).thenReturn(new int[] {1, 0});
        DefaultUnitOfWork<?> unit = DefaultUnitOfWork.startAndGet(null);
        projection.on(new SchedulePaused("s-1"), AT);
        projection.on(new SchedulePaused("s-2"), AT);

        assertThatThrownBy(unit::commit)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("SchedulePaused")
                .hasMessageContaining("s-2");
    }

    @Test
    void outside_a_unit_of_work_a_write_runs_at_once_and_is_checked() {
        when(jdbc.update(anyString(), any(SqlParameterSource.class))).thenReturn(0);

        assertThatThrownBy(() -> projection.on(new SchedulePaused("s-9"), AT))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("schedules: SchedulePaused of schedule s-9 changed 0 rows");
    }
}
