package io.axscheduler.scheduler;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

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

    /** How far the database's clock was ahead of this JVM's at the last {@link #nowMs()} (negative: behind). */
    private volatile long skewMs;

    public long nowMs() {
        long before = System.currentTimeMillis();
        long now = jdbc.queryForObject("SELECT " + NOW_MS, Long.class);
        skewMs = now - (before + System.currentTimeMillis()) / 2;
        return now;
    }

    /** The moment of this JVM's clock at which the database's clock reads {@code databaseMs}, by the last skew seen. */
    public long localMs(long databaseMs) {
        return databaseMs - skewMs;
    }
}
