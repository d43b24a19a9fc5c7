package io.axscheduler.query.stats;

import io.axscheduler.api.job.JobStatus;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Jobs by status now. Each status is counted over its range of job_queue's status index, but only up to
 * {@code exact-up-to} entries, so a page view reads at most that many per status: counting a million SUCCEEDED
 * entries takes the better part of a second. A status with more is taken from a full count (one GROUP BY over the
 * index) that runs in the background at most every {@code full-count-ms}, and only while someone asks; its figure
 * says when it was taken.
 */
@Component
public class StatusCounts implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(StatusCounts.class);

    private final NamedParameterJdbcTemplate jdbc;
    private final Clock clock;
    private final long exactUpTo;
    private final long fullCountMs;
    private final ExecutorService background = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "ax-status-counts");
        t.setDaemon(true);
        return t;
    });
    private final AtomicBoolean counting = new AtomicBoolean();
    private volatile Map<String, Long> full;
    private volatile Instant fullAt;
    private volatile long fullStartedAtMs;

    public StatusCounts(NamedParameterJdbcTemplate jdbc, Clock clock, StatusCountProperties settings) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.exactUpTo = settings.exactUpTo();
        this.fullCountMs = settings.fullCountMs();
    }

    /**
     * The counts, and for each status taken from the full count when that count was taken (null: not yet done, the
     * figure is then {@code exact-up-to + 1}, a lower bound).
     */
    public record Counts(Map<String, Long> counts, Map<String, Instant> asOf) {}

    public Counts now() {
        Map<String, Long> counts = new LinkedHashMap<>();
        Map<String, Instant> asOf = new LinkedHashMap<>();
        for (JobStatus s : JobStatus.values()) {
            Long n = jdbc.queryForObject(
                    "SELECT COUNT(*) FROM (SELECT 1 FROM job_queue WHERE status = :s LIMIT :cap) t",
                    Map.of("s", s.name(), "cap", exactUpTo + 1),
                    Long.class);
            counts.put(s.name(), n == null ? 0 : n);
        }
        boolean large = counts.values().stream().anyMatch(n -> n > exactUpTo);
        if (large) {
            refreshIfStale();
            Map<String, Long> f = full;
            counts.forEach((status, n) -> {
                if (n > exactUpTo) {
                    asOf.put(status, f == null ? null : fullAt);
                    if (f != null) counts.put(status, Math.max(exactUpTo + 1, f.getOrDefault(status, 0L)));
                }
            });
        }
        return new Counts(counts, asOf);
    }

    private void refreshIfStale() {
        long now = clock.millis();
        if (now - fullStartedAtMs < fullCountMs || !counting.compareAndSet(false, true)) return;
        fullStartedAtMs = now;
        background.execute(() -> {
            try {
                Map<String, Long> f = new LinkedHashMap<>();
                Instant at = clock.instant();
                jdbc.query("SELECT status, COUNT(*) FROM job_queue GROUP BY status", Map.of(), rs -> {
                    f.put(rs.getString(1), rs.getLong(2));
                });
                full = f;
                fullAt = at;
            } catch (RuntimeException e) {
                log.warn("console: the full count of jobs by status failed: {}", e.getMessage());
            } finally {
                counting.set(false);
            }
        });
    }

    @Override
    public void destroy() {
        background.shutdownNow();
    }
}
