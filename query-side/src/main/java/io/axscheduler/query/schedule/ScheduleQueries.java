package io.axscheduler.query.schedule;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.schedule.FindSchedule;
import io.axscheduler.api.schedule.ScheduleView;
import java.util.Map;
import java.util.Optional;
import org.axonframework.queryhandling.QueryHandler;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;

/** Reads schedules from the schedules read model. */
@Component
public class ScheduleQueries {

    private final NamedParameterJdbcTemplate jdbc;
    private final ScheduleRows rows;

    public ScheduleQueries(NamedParameterJdbcTemplate jdbc, ObjectMapper json) {
        this.jdbc = jdbc;
        this.rows = new ScheduleRows(json);
    }

    @QueryHandler
    public Optional<ScheduleView> handle(FindSchedule query) {
        return jdbc
                .query(
                        ScheduleRows.SELECT + " WHERE s.schedule_id = :id",
                        Map.of("id", query.scheduleId()),
                        rows::toView)
                .stream()
                .findFirst();
    }

    public SchedulePage list(ScheduleListRequest request) {
        return list(request, null);
    }

    /** A page of the rows in {@code namespaces}; {@code null} means every namespace, an empty set none. */
    public SchedulePage list(ScheduleListRequest request, java.util.Set<String> namespaces) {
        StringBuilder where = new StringBuilder(" WHERE 1 = 1");
        if (namespaces != null) {
            where.append(namespaces.isEmpty() ? " AND 1 = 0" : " AND s.namespace IN (:namespaces)");
        }
        MapSqlParameterSource params = new MapSqlParameterSource();
        if (namespaces != null && !namespaces.isEmpty()) params.addValue("namespaces", namespaces);
        if (request.state() != null) {
            where.append(" AND s.state = :state");
            params.addValue("state", request.state().name());
        } else {
            where.append(" AND s.state <> 'DELETED'");
        }
        if (request.name() != null) {
            // a part of the name; LIKE's wildcards in it match themselves
            where.append(" AND s.name LIKE :name ESCAPE '!'");
            params.addValue(
                    "name",
                    "%" + request.name().replace("!", "!!").replace("%", "!%").replace("_", "!_") + "%");
        }
        Long total = jdbc.queryForObject("SELECT COUNT(*) FROM schedules s" + where, params, Long.class);
        params.addValue("limit", request.size()).addValue("offset", request.offset());
        var items = jdbc.query(
                ScheduleRows.SELECT + where + " ORDER BY s.created_at DESC, s.schedule_id LIMIT :limit OFFSET :offset",
                params,
                rows::toView);
        return new SchedulePage(items, request.page(), request.size(), total == null ? 0 : total);
    }
}
