package io.axscheduler.api.worker;

/**
 * A worker reports how a pushed attempt (or shard) ended. Sent to {@code POST /api/v1/workers/callbacks}, signed
 * with the worker's secret (see {@link CallbackSignature}).
 */
public record JobCallback(
        String workerId,
        String jobId,
        int attempt,
        int shardIndex,
        boolean succeeded,
        String result,
        String error,
        long durationMs) {}
