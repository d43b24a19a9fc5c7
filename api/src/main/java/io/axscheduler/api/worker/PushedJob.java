package io.axscheduler.api.worker;

import java.util.Map;

/**
 * One attempt (or one shard of it) pushed to a worker. {@code shardIndex} is 0 and {@code shardTotal} 1 unless the
 * job is broadcast to every live worker of its app; the worker keys what it ran by job id, attempt and shard, so a
 * push retried after a lost answer is not run twice.
 */
public record PushedJob(
        String jobId,
        int attempt,
        String jobType,
        String idempotencyKey,
        Map<String, Object> params,
        long timeoutMs,
        int shardIndex,
        int shardTotal) {

    /** Where a worker takes pushes, under the address it registered. */
    public static final String PATH = "/ax-worker/jobs";

    /** Job id, attempt and shard: what a worker de-duplicates pushes by. */
    public String runKey() {
        return jobId + "#" + attempt + "#" + shardIndex;
    }
}
