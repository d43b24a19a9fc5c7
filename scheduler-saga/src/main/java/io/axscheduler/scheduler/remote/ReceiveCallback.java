package io.axscheduler.scheduler.remote;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.StrictJson;
import io.axscheduler.api.job.FailJob;
import io.axscheduler.api.job.SucceedJob;
import io.axscheduler.api.job.TimeOutJob;
import io.axscheduler.api.job.TimeoutPhase;
import io.axscheduler.api.problem.InvalidRequestException;
import io.axscheduler.api.problem.JsonRefusals;
import io.axscheduler.api.security.Caller;
import io.axscheduler.api.worker.JobCallback;
import io.axscheduler.scheduler.NodeMetrics;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * A worker's callback: verified first (a bad one changes nothing), refused when the job is in another namespace than
 * the worker (a worker runs only its namespace's jobs, whatever a dispatch row says), then counted against the
 * attempt's dispatch row,
 * then — when the attempt's shards add up to an outcome — sent to the job as SucceedJob or FailJob naming the
 * worker, with the key that sent the callback as the actor. The aggregate takes an outcome only for the attempt that is running, so a late one changes nothing.
 */
@Component
public class ReceiveCallback {

    public enum Result {
        APPLIED,
        IGNORED,
        UNAUTHORIZED,
        FORBIDDEN,
        /** The worker id is not registered (any more). */
        UNKNOWN_WORKER
    }

    private static final Logger log = LoggerFactory.getLogger(ReceiveCallback.class);

    private final WorkerRegistry registry;
    private final WorkerDispatches dispatches;
    private final WorkerCommands commands;
    private final ObjectMapper json;
    private final CallbackVerifier verifier;
    private final NodeMetrics metrics;
    private final NamedParameterJdbcTemplate jdbc;
    private final StopRemoteRuns stops;
    /** Anyone can post callbacks: their refusals are logged a few a minute, with how many were left out. */
    private final RateLimitedLog refusedCallbacks;

    public ReceiveCallback(
            WorkerRegistry registry,
            WorkerDispatches dispatches,
            WorkerCommands commands,
            ObjectMapper json,
            WorkerProperties properties,
            Clock clock,
            NodeMetrics metrics,
            NamedParameterJdbcTemplate jdbc,
            StopRemoteRuns stops) {
        this.jdbc = jdbc;
        this.stops = stops;
        this.registry = registry;
        this.metrics = metrics;
        this.dispatches = dispatches;
        this.commands = commands;
        // read by the node's one policy for received JSON, as every request body is
        this.json = StrictJson.of(json);
        this.verifier = new CallbackVerifier(properties.callbackMaxAgeMs(), clock);
        this.refusedCallbacks = new RateLimitedLog(log, 10, 60_000, clock);
    }

    /** {@code by}: the caller whose request brought the callback (the worker's key), the actor of the outcome. */
    public Result receive(String body, String timestamp, String signature, Caller by) {
        JobCallback callback;
        try {
            callback = json.readValue(body, JobCallback.class);
        } catch (JsonProcessingException unreadable) {
            metrics.callbackRejected("unreadable");
            throw new InvalidRequestException(List.of(JsonRefusals.describe(unreadable)));
        }
        if (callback.workerId() == null || callback.jobId() == null) {
            metrics.callbackRejected("unreadable");
            return Result.UNAUTHORIZED;
        }
        if (callback.durationMs() < 0) throw InvalidRequestException.of("durationMs", "must not be negative");
        WorkerRegistry.Credentials worker =
                registry.credentialsOf(callback.workerId()).orElse(null);
        if (worker == null) {
            // removed after missing its heartbeats, or deregistered: its attempts were timed out and retried then
            return refuse(callback, Result.UNKNOWN_WORKER, "unknown_worker", "no such worker is registered");
        }
        CallbackVerifier.Verdict verdict = verifier.verify(worker.secret(), timestamp, signature, body);
        if (verdict != CallbackVerifier.Verdict.VALID) {
            return refuse(
                    callback, Result.UNAUTHORIZED, verdict.name().toLowerCase(java.util.Locale.ROOT), verdict.name());
        }
        if (by != null && !by.admin() && !by.actor().equals(worker.owner().registeredBy())) {
            // as heartbeats: a worker's outcomes come with the key that registered it (or an admin's), so a revoked
            // key ends its worker's say, whoever else holds the secret
            return refuse(
                    callback,
                    Result.FORBIDDEN,
                    "principal",
                    "sent as " + by.actor() + ", not as the principal that registered it");
        }
        if (!registry.mayReport(worker.owner(), callback.jobId())) {
            return refuse(callback, Result.FORBIDDEN, "namespace", "the job is in another namespace than the worker");
        }
        WorkerDispatches.Applied applied = dispatches.record(callback);
        if (!applied.counted() && applied.outcome() == null) return Result.IGNORED;
        if (applied.counted()) registry.callbackReceived(callback.workerId());
        WorkerDispatches.Outcome outcome = applied.outcome();
        if (outcome == null) return Result.APPLIED;
        Object command;
        Long timedOut = outcome.succeeded() ? null : timeoutRun(callback.jobId(), outcome.durationMs());
        if (outcome.succeeded()) {
            command = new SucceedJob(callback.jobId(), callback.attempt(), outcome.result(), outcome.durationMs());
        } else if (timedOut != null) {
            // the worker stopped the run at the job's timeout (its own timer is the run deadline's twin, and fires
            // first): a timeout, as the same run in process would be recorded, not a failure of the handler
            command = new TimeOutJob(
                    callback.jobId(),
                    callback.attempt(),
                    TimeoutPhase.RUN,
                    "it ran longer than its timeoutMs (" + timedOut + " ms) on worker " + callback.workerId()
                            + ", which stopped it");
        } else {
            command = new FailJob(callback.jobId(), callback.attempt(), outcome.error(), outcome.durationMs());
        }
        boolean told = commands.finish(callback.jobId(), callback.attempt(), outcome.workers(), command, by);
        if (told && !outcome.succeeded() && outcome.shards() > 1) {
            // the attempt failed with this shard: the others, still running, stop now (its retry runs every shard)
            stops.stopRunsOf(
                    callback.jobId(),
                    "attempt " + callback.attempt() + " failed: shard " + callback.shardIndex() + " of "
                            + outcome.shards() + " failed");
        }
        return told ? Result.APPLIED : Result.IGNORED;
    }

    /** The {@code workerId} a callback's body names, or null when it is not one. */
    public String workerIdOf(String body) {
        try {
            return json.readValue(body, JobCallback.class).workerId();
        } catch (JsonProcessingException unreadable) {
            return null;
        }
    }

    /** Counts and logs (a few a minute) a refused callback, answered with {@code result}. */
    private Result refuse(JobCallback callback, Result result, String reason, String why) {
        metrics.callbackRejected(reason);
        refusedCallbacks.warn(
                "callback for job {} from worker {} refused: {}",
                printable(callback.jobId()),
                printable(callback.workerId()),
                why);
        return result;
    }

    /** Whether a failed run lasted at least its job's {@code timeoutMs}: one primary-key read, for failures only. */
    /** The job's timeoutMs when the run lasted at least that long, else null. */
    private Long timeoutRun(String jobId, long durationMs) {
        List<Long> timeout = jdbc.queryForList(
                "SELECT timeout_ms FROM job_queue WHERE job_id = :id", Map.of("id", jobId), Long.class);
        return !timeout.isEmpty() && timeout.get(0) != null && durationMs >= timeout.get(0) ? timeout.get(0) : null;
    }

    /**
     * {@code text} with its control characters (a newline would start a forged log line) shown as {@code \\uXXXX},
     * and cut at 100 characters: unauthenticated input goes into the log only this way.
     */
    static String printable(String text) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length() && i < 100; i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029')
                out.append(String.format("\\u%04x", (int) c));
            else out.append(c);
        }
        return text.length() > 100 ? out + "…" : out.toString();
    }
}
