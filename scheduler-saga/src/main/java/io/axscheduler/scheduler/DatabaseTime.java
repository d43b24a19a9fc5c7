package io.axscheduler.scheduler;

import java.time.Clock;
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
    private final Clock clock;

    public DatabaseTime(JdbcTemplate jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** {@link #approximateNowMs()} reads the database's clock again when its last reading is older than this. */
    static final long SKEW_REFRESH_MS = 5_000;

    /**
     * The least the database's clock can have been ahead of this JVM's (negative: behind) at the last {@link #nowMs()}:
     * the server read its clock before the answer came back, whatever the wait for a connection or the round trip.
     */
    private volatile long leastSkewMs;

    private volatile long skewMeasuredAt;

    /** The database's clock, read with a query. */
    public long nowMs() {
        long now = jdbc.queryForObject("SELECT " + NOW_MS, Long.class);
        long answered = clock.millis();
        leastSkewMs = now - answered;
        skewMeasuredAt = answered;
        return now;
    }

    /**
     * The database's clock as this JVM's plus the last measured skew (measured again after
     * {@value #SKEW_REFRESH_MS} ms): at most a round trip behind the truth, for what need not be exact, such as the
     * end of a lease. Whether something is due is decided by {@link #NOW_MS} inside the statement, never by this.
     */
    public long approximateNowMs() {
        long local = clock.millis();
        return local - skewMeasuredAt > SKEW_REFRESH_MS ? nowMs() : local + leastSkewMs;
    }

    /**
     * The moment of this JVM's clock by which the database's clock has surely reached {@code databaseMs}, by the last
     * measurement: never early, and late by at most the time from the server's reading to its answer.
     */
    public long localMs(long databaseMs) {
        return databaseMs - leastSkewMs;
    }
}
