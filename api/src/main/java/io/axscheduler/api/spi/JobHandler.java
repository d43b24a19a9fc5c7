package io.axscheduler.api.spi;

import java.util.Map;

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

    /**
     * What is wrong with a job's {@code params} for this type, asked when the job is submitted (and when a schedule
     * making such jobs is saved): each entry names a field under {@code params} and why it will not do. A job whose
     * params could only fail at run time is then refused with 400 instead. Empty when they will do.
     */
    default Map<String, String> paramProblems(Map<String, Object> params) {
        return Map.of();
    }

    /** Threads (and so concurrent runs) this type gets on each node; 0 lets the node's setting decide. */
    default int concurrency() {
        return 0;
    }
}
