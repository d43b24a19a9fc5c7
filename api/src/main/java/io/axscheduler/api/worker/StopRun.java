package io.axscheduler.api.worker;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * The scheduler no longer counts a run a worker holds as running: the job was canceled, the attempt ended (timed
 * out, or another shard of its broadcast failed), or a later attempt runs. The worker tells the handler to stop
 * ({@code isCancelled()}). Sent on a heartbeat's answer, which repeats it until the run's outcome is called back, and
 * pushed to {@link #PATH} by the node that canceled the job, at once. Fields a later scheduler adds are ignored.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record StopRun(String jobId, int attempt, int shardIndex, String reason, boolean workerTakenOut) {

    /**
     * A stop of a run the job no longer counts; {@code workerTakenOut} is set when the worker itself was taken out
     * (an admin's removal, its key revoked or expired): it takes no more jobs, as a 410 on its heartbeat says.
     */
    public StopRun(String jobId, int attempt, int shardIndex, String reason) {
        this(jobId, attempt, shardIndex, reason, false);
    }

    /** Where a worker takes the scheduler's stops, under the address it registered. */
    public static final String PATH = PushedJob.PATH + "/stop";

    /** The key of the run it stops, as {@link PushedJob#runKey()}. */
    public String runKey() {
        return PushedJob.runKey(jobId, attempt, shardIndex);
    }
}
