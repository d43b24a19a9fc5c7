package io.axscheduler.query;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.springframework.jdbc.core.PreparedStatementCallback;
import org.springframework.jdbc.core.PreparedStatementCreatorFactory;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterUtils;
import org.springframework.jdbc.core.namedparam.ParsedSql;
import org.springframework.jdbc.core.namedparam.SqlParameterSource;

/**
 * A projection's writes to its table, one row each, made in the transaction of the event append. Inside a unit of
 * work (the live projection) a write joins the unit's batch, flushed as JDBC batches just before it commits: a claim
 * batch of 200 jobs, or a batch request of 1,000 schedules, is then a few round trips, not one per event. Outside one
 * (a rebuild replays through the handlers directly) it runs at once.
 * <p>
 * Every write must change exactly one row: 0 means the row the event assumes is missing (its creation lost, or the
 * table cleared under a running system), more than 1 cannot happen on a primary key. Either fails the append rather
 * than letting the read model diverge. A batch that answers one count for all its rows (MariaDB's bulk command) is
 * checked as a whole; when that count is not one a write, by reading which of its rows exist.
 */
public final class BatchedRowWrites {

    private final String table;
    private final String keyColumn;
    private final String rowKind;
    private final NamedParameterJdbcTemplate jdbc;
    private final String resourceKey;

    /** {@code keyColumn} is the table's primary key; {@code rowKind} names a row in failure messages ("job", "schedule"). */
    public BatchedRowWrites(String table, String keyColumn, String rowKind, NamedParameterJdbcTemplate jdbc) {
        this.table = table;
        this.keyColumn = keyColumn;
        this.rowKind = rowKind;
        this.jdbc = jdbc;
        this.resourceKey = BatchedRowWrites.class.getName() + "." + table;
    }

    /** One write of the row {@code rowId}, made for {@code event}. */
    public void write(String sql, MapSqlParameterSource params, String rowId, Object event) {
        write(null, sql, params, rowId, event);
    }

    /** As {@link #write(String, MapSqlParameterSource, String, Object)}, replacing a pending write of the row made for {@code supersedes}. */
    public void write(Class<?> supersedes, String sql, MapSqlParameterSource params, String rowId, Object event) {
        if (!CurrentUnitOfWork.isStarted()) {
            requireOneRow(jdbc.update(sql, params), new Write(sql, params, rowId, event));
            return;
        }
        UnitOfWork<?> unit = CurrentUnitOfWork.get();
        unit.getOrComputeResource(resourceKey, key -> {
                    Pending pending = new Pending();
                    unit.onPrepareCommit(u -> pending.flush());
                    return pending;
                })
                .add(supersedes, new Write(sql, params, rowId, event));
    }

    /**
     * As {@link #write(Class, String, MapSqlParameterSource, String, Object)}, but when the row's last pending write was
     * made for an event of type {@code into} (its insert, say), that write becomes {@code foldedSql} with its own
     * values and {@code params}' added: a row created and moved on in one unit of work is written once. The folded
     * write keeps its event, so that later writes of the row fold into it too.
     */
    public void writeOrFold(
            Class<?> into,
            String foldedSql,
            Class<?> supersedes,
            String sql,
            MapSqlParameterSource params,
            String rowId,
            Object event) {
        Pending pending =
                CurrentUnitOfWork.isStarted() ? CurrentUnitOfWork.get().getResource(resourceKey) : null;
        if (pending == null || !pending.fold(into, foldedSql, params, rowId))
            write(supersedes, sql, params, rowId, event);
    }

    private void requireOneRow(int rows, Write write) {
        if (rows != 1 && rows != Statement.SUCCESS_NO_INFO) {
            throw new IllegalStateException(
                    table + ": " + write.event().getClass().getSimpleName() + " of " + rowKind + " " + write.rowId()
                            + " changed " + rows + " rows, expected 1");
        }
    }

    private record Write(String sql, MapSqlParameterSource params, String rowId, Object event) {}

    /**
     * The writes of one unit of work. Each row's writes keep their event order; writes of different rows may go in any
     * order. So the n-th write of every row forms layer n, and each layer goes as one JDBC batch per statement: a claim
     * batch (JobClaimed, JobStarted for each job) is one batch, not one per event.
     */
    private final class Pending {

        private final List<List<Write>> layers = new ArrayList<>();
        private final Map<String, Slot> lastWriteOfRow = new HashMap<>();

        /** Where a write waits: its layer, and its place in that layer. */
        private record Slot(int layer, int index) {}

        /** A write whose row's last pending write was made for an event of type {@code supersedes} takes its place. */
        void add(Class<?> supersedes, Write write) {
            Slot last = lastWriteOfRow.get(write.rowId());
            if (last != null
                    && supersedes != null
                    && supersedes.isInstance(
                            layers.get(last.layer()).get(last.index()).event())) {
                layers.get(last.layer()).set(last.index(), write);
                return;
            }
            int layer = last == null ? 0 : last.layer() + 1;
            if (layer == layers.size()) layers.add(new ArrayList<>());
            layers.get(layer).add(write);
            lastWriteOfRow.put(write.rowId(), new Slot(layer, layers.get(layer).size() - 1));
        }

        /** Folds into the row's last pending write when it was made for an {@code into} event; false when it was not. */
        boolean fold(Class<?> into, String foldedSql, MapSqlParameterSource folded, String rowId) {
            Slot last = lastWriteOfRow.get(rowId);
            if (last == null) return false;
            Write pending = layers.get(last.layer()).get(last.index());
            if (!into.isInstance(pending.event())) return false;
            MapSqlParameterSource params = pending.params();
            for (String name : folded.getParameterNames())
                params.addValue(name, folded.getValue(name), folded.getSqlType(name));
            layers.get(last.layer()).set(last.index(), new Write(foldedSql, params, rowId, pending.event()));
            return true;
        }

        void flush() {
            for (List<Write> layer : layers) {
                Map<String, List<Write>> bySql = new LinkedHashMap<>();
                for (Write write : layer)
                    bySql.computeIfAbsent(write.sql(), k -> new ArrayList<>()).add(write);
                for (List<Write> run : bySql.values()) execute(run);
            }
            layers.clear();
            lastWriteOfRow.clear();
        }

        private void execute(List<Write> run) {
            if (run.size() == 1) {
                requireOneRow(jdbc.update(run.get(0).sql(), run.get(0).params()), run.get(0));
                return;
            }
            RowBatch batch = new RowBatch(
                    run.get(0).sql(),
                    run.stream().<SqlParameterSource>map(Write::params).toList());
            RowBatch.Counts counts = jdbc.execute(batch.sql(), batch.rows().get(0), batch);
            if (counts.perRow() != null) {
                for (int i = 0; i < run.size(); i++) requireOneRow(counts.perRow()[i], run.get(i));
            } else if (counts.total() != run.size()) {
                // a count other than one a write may be the driver's: it splits a bulk batch where a column is bound
                // null
                // in one row and a value in another, and then answers only the first part's count (or none at all).
                // Each
                // write is of one row by its primary key, so the rows themselves say whether every write found its own.
                requireRowsExist(run);
            }
        }

        private void requireRowsExist(List<Write> run) {
            List<String> ids = run.stream().map(Write::rowId).distinct().toList();
            Set<String> found = new HashSet<>(jdbc.queryForList(
                    "SELECT " + keyColumn + " FROM " + table + " WHERE " + keyColumn + " IN (:ids)",
                    Map.of("ids", ids),
                    String.class));
            List<String> missing =
                    ids.stream().filter(id -> !found.contains(id)).toList();
            if (!missing.isEmpty()) {
                throw new IllegalStateException(
                        table + ": " + run.get(0).event().getClass().getSimpleName() + " of " + rowKind
                                + (missing.size() == 1 ? " " : "s ")
                                + missing.stream().limit(20).toList() + (missing.size() > 20 ? "…" : "")
                                + " in a batch of " + run.size() + " changed no row: missing");
            }
        }
    }

    /**
     * One statement run for each of {@code rows} as one JDBC batch. MariaDB Connector/J sends it as MariaDB's bulk
     * command (see application.yml), which answers a count for the whole batch instead of one per row.
     */
    public record RowBatch(String sql, List<SqlParameterSource> rows)
            implements PreparedStatementCallback<RowBatch.Counts> {

        /** The rows each entry changed (null when the driver did not count them one by one), and their total (-1: none). */
        public record Counts(int[] perRow, long total) {}

        @Override
        public Counts doInPreparedStatement(PreparedStatement statement) throws SQLException {
            ParsedSql parsed = NamedParameterUtils.parseSqlStatement(sql);
            PreparedStatementCreatorFactory types = new PreparedStatementCreatorFactory(
                    NamedParameterUtils.substituteNamedParameters(parsed, rows.get(0)),
                    NamedParameterUtils.buildSqlParameterList(parsed, rows.get(0)));
            for (SqlParameterSource row : rows) {
                types.newPreparedStatementSetter(NamedParameterUtils.buildValueArray(parsed, row, null))
                        .setValues(statement);
                statement.addBatch();
            }
            int[] perRow = statement.executeBatch();
            return Arrays.stream(perRow).allMatch(n -> n == Statement.SUCCESS_NO_INFO)
                    ? new Counts(null, statement.getLargeUpdateCount())
                    : new Counts(perRow, Arrays.stream(perRow).asLongStream().sum());
        }
    }
}
