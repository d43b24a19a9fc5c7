package io.axscheduler.api.worker;

import java.util.Map;

/**
 * One attempt (or one shard of it) pushed to a worker. {@code shardIndex} is 0 and {@code shardTotal} 1 unless the
 * job is broadcast to every live worker of its app; the worker keys what it ran by job id, attempt and shard, so a
 * push retried after a lost answer is not run twice. {@code answerWithinMs}: how long after the push's signed
 * timestamp the scheduler waits for the answer (0: not said, from an older scheduler). A push read later than that
 * (the worker was stopped or paused while it waited in the socket) has been given up and handed to another worker or
 * back to the queue: the worker does not run it.
 */
public record PushedJob(
        String jobId,
        int attempt,
        String jobType,
        String idempotencyKey,
        Map<String, Object> params,
        long timeoutMs,
        int shardIndex,
        int shardTotal,
        long answerWithinMs) {

    public PushedJob(
            String jobId,
            int attempt,
            String jobType,
            String idempotencyKey,
            Map<String, Object> params,
            long timeoutMs,
            int shardIndex,
            int shardTotal) {
        this(jobId, attempt, jobType, idempotencyKey, params, timeoutMs, shardIndex, shardTotal, 0);
    }

    /** This push as sent with an answer awaited for {@code ms}. */
    public PushedJob answeredWithin(long ms) {
        return new PushedJob(jobId, attempt, jobType, idempotencyKey, params, timeoutMs, shardIndex, shardTotal, ms);
    }

    /** Where a worker takes pushes, under the address it registered. */
    public static final String PATH = "/ax-worker/jobs";

    /** Job id, attempt and shard: what a worker de-duplicates pushes by. */
    public String runKey() {
        return jobId + "#" + attempt + "#" + shardIndex;
    }
}
