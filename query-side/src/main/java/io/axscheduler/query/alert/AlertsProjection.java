package io.axscheduler.query.alert;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.Metadata;
import io.axscheduler.api.TextLimit;
import io.axscheduler.api.alert.AlertRaised;
import io.axscheduler.api.alert.AlertResolved;
import io.axscheduler.api.job.JobCanceled;
import io.axscheduler.api.job.JobFailed;
import io.axscheduler.api.job.JobTimedOut;
import io.axscheduler.api.job.TimeoutPhase;
import io.axscheduler.api.observe.BoundedLabels;
import io.axscheduler.query.job.JobStateFold;
import io.axscheduler.query.metrics.AfterCommit;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.Timestamp;
import org.axonframework.messaging.annotation.MetaDataValue;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.namedparam.SqlParameterSource;
import org.springframework.stereotype.Component;

/**
 * The alerts read model and the failures the failure rules read, in a subscribing processor (in the transaction of
 * the append): a second raise of a rule and key that still fires breaks the unique open key and fails its command, so
 * two evaluators cannot raise one alert twice. Counts ax_alerts_total once per alert event, cluster-wide.
 */
@Component
@ProcessingGroup(AlertsProjection.PROCESSING_GROUP)
public class AlertsProjection {

    public static final String PROCESSING_GROUP = "alerts";

    private final NamedParameterJdbcTemplate jdbc;
    private final ObjectMapper json;
    private final MeterRegistry meters;
    private final BoundedLabels rules = new BoundedLabels(200);

    public AlertsProjection(NamedParameterJdbcTemplate jdbc, ObjectMapper json, ObjectProvider<MeterRegistry> meters) {
        this.jdbc = jdbc;
        this.json = json;
        this.meters = meters.getIfAvailable(SimpleMeterRegistry::new);
    }

    /** (rule, key) of a firing alert; rule names and keys are bounded so it fits its column. */
    public static String openKey(String rule, String key) {
        return rule + "|" + key;
    }

    /**
     * Also one {@code alert_notifications} row per channel told, which the per-channel rate limit counts, and the
     * channels told in {@code told}, which the resolve tells again.
     */
    @EventHandler
    void on(AlertRaised e, @Timestamp Instant at) {
        List<String> told = e.channels() == null ? List.of() : e.channels();
        jdbc.update(
                """
                INSERT INTO alerts (alert_id, rule, type, alert_key, state, message, details, notified, told, open_key,
                                    raised_at, namespace)
                VALUES (:id, :rule, :type, :key, 'FIRING', :message, :details, :notified, :told, :openKey, :at,
                        :namespace)""",
                new MapSqlParameterSource()
                        .addValue("id", e.alertId())
                        .addValue("rule", e.rule())
                        .addValue("type", e.type().name())
                        .addValue("key", e.key())
                        .addValue("message", TextLimit.truncate(e.message()))
                        .addValue("details", write(e.details()))
                        .addValue("notified", e.notified() ? 1 : 0)
                        .addValue("told", e.notified() ? write(told) : "[]")
                        .addValue("openKey", openKey(e.rule(), e.key()))
                        .addValue("at", at.toEpochMilli())
                        .addValue("namespace", e.namespace()));
        if (e.notified() && !told.isEmpty()) {
            jdbc.batchUpdate(
                    "INSERT INTO alert_notifications (alert_id, channel, notified_at) VALUES (:id, :channel, :at)",
                    told.stream()
                            .map(channel -> new MapSqlParameterSource()
                                    .addValue("id", e.alertId())
                                    .addValue("channel", channel)
                                    .addValue("at", at.toEpochMilli()))
                            .toArray(SqlParameterSource[]::new));
        }
        String rule = rules.of(e.rule());
        AfterCommit.run(() -> alerts(rule, "firing").increment());
    }

    @EventHandler
    void on(AlertResolved e, @Timestamp Instant at) {
        jdbc.update(
                "UPDATE alerts SET state = 'RESOLVED', open_key = NULL, resolved_at = :at WHERE alert_id = :id",
                Map.of("id", e.alertId(), "at", at.toEpochMilli()));
        String rule = rules.of(e.rule());
        AfterCommit.run(() -> alerts(rule, "resolved").increment());
    }

    private io.micrometer.core.instrument.Counter alerts(String rule, String state) {
        return io.micrometer.core.instrument.Counter.builder("ax.alerts")
                .description("alerts raised (state firing) and resolved, by rule")
                .tags("rule", rule, "state", state)
                .register(meters);
    }

    /** A misfire's skip, for SCHEDULE_MISFIRED; an overlap policy's skip is the policy at work, not a miss. */
    @EventHandler
    void on(io.axscheduler.api.schedule.ScheduleFireSkipped e, @Timestamp Instant at) {
        if (io.axscheduler.query.metrics.SkipCause.of(e.reason()) != io.axscheduler.query.metrics.SkipCause.MISFIRE)
            return;
        jdbc.update(
                """
                INSERT INTO schedule_misfires (schedule_id, fire_time, namespace, reason, skipped_at)
                VALUES (:schedule, :fireTime, :namespace, :reason, :at)
                ON DUPLICATE KEY UPDATE reason = VALUES(reason)""",
                new MapSqlParameterSource()
                        .addValue("schedule", e.scheduleId())
                        .addValue("fireTime", e.fireTime().toEpochMilli())
                        .addValue("namespace", e.namespace())
                        .addValue("reason", TextLimit.truncate(e.reason()))
                        .addValue("at", at.toEpochMilli()));
    }

    @EventHandler
    void on(JobFailed e, @Timestamp Instant at) {
        failure(e.jobId(), e.attempt(), "FAILED", e.error(), at);
    }

    @EventHandler
    void on(JobTimedOut e, @Timestamp Instant at) {
        if (e.phase() == TimeoutPhase.RUN)
            failure(e.jobId(), e.attempt(), "TIMED_OUT", JobStateFold.runTimeoutError(e), at);
    }

    /**
     * The scheduler cancels a job only to give it up (no one could take it within {@code no-worker-timeout}): to
     * whoever is on call that is a job failed for good, not an operator's decision. Recorded as the attempt it never
     * got, outcome {@code GIVEN_UP}.
     */
    @EventHandler
    void on(JobCanceled e, @MetaDataValue(Metadata.ACTOR) String actor, @Timestamp Instant at) {
        String givenUp = JobStateFold.givenUpError(e, actor);
        if (givenUp != null) failure(e.jobId(), null, "GIVEN_UP", givenUp, at);
    }

    /** {@code attempt} null: the attempt after the job's last, which never started (the failure is for good). */
    private void failure(String jobId, Integer attempt, String outcome, String error, Instant at) {
        // the job's type, schedule, namespace and retry limit are in its job_queue row (written before this run ended)
        List<Map<String, Object>> rows = jdbc.queryForList(
                "SELECT job_type, schedule_id, max_retries, namespace, attempt FROM job_queue WHERE job_id = :id",
                Map.of("id", jobId));
        if (rows.isEmpty()) return;
        Map<String, Object> row = rows.get(0);
        boolean forGood = attempt == null || attempt > ((Number) row.get("max_retries")).intValue();
        if (attempt == null) attempt = ((Number) row.get("attempt")).intValue() + 1;
        jdbc.update(
                """
                INSERT INTO job_failures (job_id, attempt, job_type, schedule_id, outcome, for_good, error, failed_at,
                                          namespace)
                VALUES (:id, :attempt, :type, :schedule, :outcome, :forGood, :error, :at, :namespace)
                ON DUPLICATE KEY UPDATE outcome = VALUES(outcome)""",
                new MapSqlParameterSource()
                        .addValue("id", jobId)
                        .addValue("attempt", attempt)
                        .addValue("type", row.get("job_type"))
                        .addValue("schedule", row.get("schedule_id"))
                        .addValue("outcome", outcome)
                        .addValue("forGood", forGood ? 1 : 0)
                        .addValue("error", TextLimit.truncate(error))
                        .addValue("at", at.toEpochMilli())
                        .addValue("namespace", row.get("namespace")));
    }

    private String write(Object value) {
        try {
            return value == null ? null : json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("alert details cannot be written as JSON", e);
        }
    }
}
