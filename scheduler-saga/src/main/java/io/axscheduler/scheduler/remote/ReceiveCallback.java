package io.axscheduler.scheduler.remote;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.job.FailJob;
import io.axscheduler.api.job.SucceedJob;
import io.axscheduler.api.worker.JobCallback;
import io.axscheduler.scheduler.NodeMetrics;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * A worker's callback: verified first (a bad one changes nothing), then counted against the attempt's dispatch row,
 * then — when the attempt's shards add up to an outcome — sent to the job as SucceedJob or FailJob naming the
 * worker. The aggregate takes an outcome only for the attempt that is running, so a late one changes nothing.
 */
@Component
public class ReceiveCallback {

    public enum Result {
        APPLIED,
        IGNORED,
        UNAUTHORIZED
    }

    private static final Logger log = LoggerFactory.getLogger(ReceiveCallback.class);

    private final WorkerRegistry registry;
    private final WorkerDispatches dispatches;
    private final WorkerCommands commands;
    private final ObjectMapper json;
    private final CallbackVerifier verifier;
    private final NodeMetrics metrics;

    public ReceiveCallback(
            WorkerRegistry registry,
            WorkerDispatches dispatches,
            WorkerCommands commands,
            ObjectMapper json,
            WorkerProperties properties,
            Clock clock,
            NodeMetrics metrics) {
        this.registry = registry;
        this.metrics = metrics;
        this.dispatches = dispatches;
        this.commands = commands;
        this.json = json;
        this.verifier = new CallbackVerifier(properties.callbackMaxAgeMs(), clock);
    }

    public Result receive(String body, String timestamp, String signature) {
        JobCallback callback;
        try {
            callback = json.readValue(body, JobCallback.class);
        } catch (Exception unreadable) {
            metrics.callbackRejected("unreadable");
            return Result.UNAUTHORIZED; // without a readable worker id there is no secret to check it against
        }
        if (callback.workerId() == null || callback.jobId() == null) {
            metrics.callbackRejected("unreadable");
            return Result.UNAUTHORIZED;
        }
        String secret = registry.secretOf(callback.workerId()).orElse(null);
        CallbackVerifier.Verdict verdict = verifier.verify(secret, timestamp, signature, body);
        if (verdict != CallbackVerifier.Verdict.VALID) {
            log.warn("callback for job {} from worker {} refused: {}", callback.jobId(), callback.workerId(), verdict);
            metrics.callbackRejected(verdict.name().toLowerCase(java.util.Locale.ROOT));
            return Result.UNAUTHORIZED;
        }
        WorkerDispatches.Applied applied = dispatches.record(callback);
        if (!applied.counted()) return Result.IGNORED;
        registry.callbackReceived(callback.workerId());
        WorkerDispatches.Outcome outcome = applied.outcome();
        if (outcome == null) return Result.APPLIED;
        Object command = outcome.succeeded()
                ? new SucceedJob(callback.jobId(), callback.attempt(), outcome.result(), outcome.durationMs())
                : new FailJob(callback.jobId(), callback.attempt(), outcome.error(), outcome.durationMs());
        return commands.finish(callback.jobId(), callback.attempt(), outcome.workers(), command)
                ? Result.APPLIED
                : Result.IGNORED;
    }
}
