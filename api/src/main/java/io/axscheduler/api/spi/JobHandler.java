package io.axscheduler.api.spi;

/**
 * Runs jobs of one type. Register an implementation as a Spring bean; the node hands it every job whose
 * {@code jobType} equals {@link #jobType()}, on a bounded pool of its own.
 */
public interface JobHandler {

    String jobType();

    /**
     * Runs one attempt. Return a short summary of the result (may be null); throw to fail the attempt, which the
     * retry policy may then retry. Long runs should check {@link JobContext#isCancelled()}.
     */
    String execute(JobContext context) throws Exception;

    /** Threads (and so concurrent runs) this type gets on each node; 0 lets the node's setting decide. */
    default int concurrency() {
        return 0;
    }
}
