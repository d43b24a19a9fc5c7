package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.axscheduler.scheduler.DatabaseTime;
import java.sql.Connection;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A wake-up at the local moment {@link DatabaseTime#localMs} gives for a due time must not come before the database's
 * clock reaches it: a scan woken early finds nothing due and lets its lane go quiet past the job. The clock reading
 * may wait for a pooled connection; that wait must not count as the query's round trip.
 */
class DatabaseTimeIT {

    private static final long HELD_MS = 300;

    @Test
    void a_local_moment_from_a_reading_that_waited_for_its_connection_is_never_early() throws Exception {
        try (HikariDataSource pool = new HikariDataSource()) {
            pool.setJdbcUrl(TestDatabase.freshDatabase("database_time"));
            pool.setUsername(TestDatabase.user());
            pool.setPassword(TestDatabase.password());
            pool.setMaximumPoolSize(1);
            pool.setConnectionInitSql("SET time_zone = '+00:00'");
            JdbcTemplate jdbc = new JdbcTemplate(pool);
            DatabaseTime time = new DatabaseTime(jdbc, java.time.Clock.systemUTC());
            ExecutorService holder = Executors.newSingleThreadExecutor();
            try {
                CountDownLatch held = new CountDownLatch(1);
                Future<?> release = holder.submit(() -> {
                    try (Connection only = pool.getConnection()) {
                        held.countDown();
                        Thread.sleep(HELD_MS);
                    }
                    return null;
                });
                held.await();

                long now = time.nowMs(); // waits about HELD_MS for the pool's only connection
                release.get();
                long due = now + 20;
                long wakeAt = time.localMs(due);
                Thread.sleep(Math.max(0, wakeAt - System.currentTimeMillis()));

                assertThat(jdbc.queryForObject("SELECT " + DatabaseTime.NOW_MS, Long.class))
                        .as("the database's clock at the local moment given for %d", due)
                        .isGreaterThanOrEqualTo(due);
            } finally {
                holder.shutdownNow();
            }
        }
    }
}
