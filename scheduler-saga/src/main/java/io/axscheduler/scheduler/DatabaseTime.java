package io.axscheduler.scheduler;

import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.sql.ResultSet;
import java.sql.Statement;

/**
 * The database's clock, the one truth for anything shared between nodes (due times, leases): node clocks drift,
 * the server's does not differ between nodes. Sessions run at UTC, so NOW(3) has no daylight-saving ambiguity.
 */
@Component
public class DatabaseTime {

    /** The SQL expression for "now" in epoch milliseconds, for use inside statements. */
    public static final String NOW_MS = "ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000)";

    private final JdbcTemplate jdbc;

    public DatabaseTime(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** {@link #approximateNowMs()} reads the database's clock again when its last reading is older than this. */
    static final long SKEW_REFRESH_MS = 5_000;

    /** How far the database's clock was ahead of this JVM's at the last {@link #nowMs()} (negative: behind). */
    private volatile long skewMs;
    /** The least that skew can have been, given when the query was sent and when its answer came back. */
    private volatile long leastSkewMs;
    private volatile long skewMeasuredAt;

    /**
     * The database's clock, read with a query. The skew is timed around the query alone, on a connection already in
     * hand: a wait for a pooled connection would widen the window in which the server read its clock.
     */
    public long nowMs() {
        return jdbc.execute((ConnectionCallback<Long>) connection -> {
            try (Statement statement = connection.createStatement()) {
                long before = System.currentTimeMillis();
                long now;
                try (ResultSet row = statement.executeQuery("SELECT " + NOW_MS)) {
                    row.next();
                    now = row.getLong(1);
                }
                long after = System.currentTimeMillis();
                skewMs = now - (before + after) / 2;
                leastSkewMs = now - after;
                skewMeasuredAt = after;
                return now;
            }
        });
    }

    /**
     * The database's clock as this JVM's plus the last measured skew (measured again after
     * {@value #SKEW_REFRESH_MS} ms): within a round trip of the truth, for what need not be exact, such as the end of
     * a lease. Whether something is due is decided by {@link #NOW_MS} inside the statement, never by this.
     */
    public long approximateNowMs() {
        long local = System.currentTimeMillis();
        return local - skewMeasuredAt > SKEW_REFRESH_MS ? nowMs() : local + skewMs;
    }

    /**
     * The moment of this JVM's clock by which the database's clock has surely reached {@code databaseMs}, by the last
     * measurement: never early, and late by at most that query's round trip.
     */
    public long localMs(long databaseMs) {
        return databaseMs - leastSkewMs;
    }
}
