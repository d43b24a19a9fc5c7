package io.axscheduler.api.worker;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.Map;

/**
 * One attempt (or one shard of it) pushed to a worker. {@code shardIndex} is 0 and {@code shardTotal} 1 unless the
 * job is broadcast to every live worker of its app; the worker keys what it ran by job id, attempt and shard, so a
 * push retried after a lost answer is not run twice. Fields a later scheduler adds are ignored, whatever the worker
 * application's JSON settings.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record PushedJob(
        String jobId,
        int attempt,
        String jobType,
        String idempotencyKey,
        Map<String, Object> params,
        long timeoutMs,
        int shardIndex,
        int shardTotal) {

    /**
     * How long the scheduler waits for the push's answer after its signed timestamp, in milliseconds. A push read
     * later than that (the worker was stopped or paused while it waited in the socket) has been given up: handed to
     * another worker or back to the queue. A header, not a field: a worker of an earlier library reading pushes
     * strictly would refuse a field it does not know.
     */
    public static final String ANSWER_WITHIN_HEADER = "X-Ax-Answer-Within-Ms";

    /** Where a worker takes pushes, under the address it registered. */
    public static final String PATH = "/ax-worker/jobs";

    /** Job id, attempt and shard: what a worker de-duplicates pushes by. */
    public String runKey() {
        return runKey(jobId, attempt, shardIndex);
    }

    static String runKey(String jobId, int attempt, int shardIndex) {
        return jobId + "#" + attempt + "#" + shardIndex;
    }
}
