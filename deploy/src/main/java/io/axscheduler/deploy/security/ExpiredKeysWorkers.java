package io.axscheduler.deploy.security;

import io.axscheduler.api.security.Caller;
import io.axscheduler.scheduler.remote.RemoveWorkers;
import io.axscheduler.scheduler.remote.WorkerProperties;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

/**
 * A key that expires takes the workers it registered out with it, as a revocation does: refused from then on, they
 * would otherwise run into the silence timeout, their runs given up as "sent no heartbeat". Looks as often as silent
 * workers are looked for ({@code ax.scheduler.workers.expiry-check-ms}) at the keys that expired within the last day
 * (the node's clock, as authentication judges expiry); every node looks, and a worker another node took out meanwhile
 * is skipped.
 */
@Component
class ExpiredKeysWorkers implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(ExpiredKeysWorkers.class);
    private static final long LOOK_BACK_MS = 86_400_000;

    private final NamedParameterJdbcTemplate jdbc;
    private final RemoveWorkers removeWorkers;
    private final Clock clock;
    private final Duration every;

    ExpiredKeysWorkers(
            NamedParameterJdbcTemplate jdbc, RemoveWorkers removeWorkers, Clock clock, WorkerProperties workers) {
        this.every = Duration.ofMillis(workers.expiryCheckMs());
        this.jdbc = jdbc;
        this.removeWorkers = removeWorkers;
        this.clock = clock;
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar tasks) {
        tasks.addFixedDelayTask(new FixedDelayTask(this::takeOutWorkersOfExpiredKeys, every, every));
    }

    void takeOutWorkersOfExpiredKeys() {
        try {
            long now = clock.millis();
            // the expired keys that still have a worker: one read of two small tables, empty nearly always
            List<Map<String, Object>> expired = jdbc.queryForList(
                    "SELECT DISTINCT k.name, k.expires_at FROM api_keys k JOIN workers w"
                            + " ON w.registered_by = CONCAT('key:', k.name)"
                            + " WHERE k.expires_at <= :now AND k.expires_at > :since AND k.revoked_at IS NULL",
                    Map.of("now", now, "since", now - LOOK_BACK_MS));
            for (Map<String, Object> key : expired) {
                String actor = "key:" + key.get("name");
                Instant at = Instant.ofEpochMilli(((Number) key.get("expires_at")).longValue());
                removeWorkers.keyEnded(actor, Caller.SCHEDULER, "its API key " + actor + " expired at " + at);
            }
        } catch (RuntimeException e) {
            log.warn("looking for workers of expired keys failed; looked for again in {}: {}", every, e.toString());
        }
    }
}
