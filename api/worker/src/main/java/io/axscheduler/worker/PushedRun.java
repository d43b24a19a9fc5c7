package io.axscheduler.worker;

import io.axscheduler.api.spi.CancellableJobContext;
import io.axscheduler.api.worker.JobCallback;
import io.axscheduler.api.worker.PushedJob;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One pushed attempt (or shard) on this worker: what its handler sees, and what it ended with. */
final class PushedRun extends CancellableJobContext {

    private static final Logger log = LoggerFactory.getLogger(PushedRun.class);

    private final PushedJob job;
    private volatile JobCallback outcome;

    /** A broadcast's handlers find their shard in the params, as {@code shardIndex} and {@code shardTotal}. */
    PushedRun(PushedJob job) {
        super(job.jobId(), job.jobType(), job.attempt(), job.idempotencyKey(), shardParams(job));
        this.job = job;
    }

    private static Map<String, Object> shardParams(PushedJob job) {
        Map<String, Object> all = job.params() == null ? new HashMap<>() : new HashMap<>(job.params());
        all.putIfAbsent("shardIndex", job.shardIndex());
        all.putIfAbsent("shardTotal", job.shardTotal());
        return Map.copyOf(all);
    }

    /**
     * Tells the handler to stop, logged as "told to stop {@code why}" ("by the scheduler: …", "as …"), once: false
     * when it had ended or been told already.
     */
    boolean stop(String why) {
        synchronized (this) {
            if (outcome != null || isCancelled()) return false;
            cancel();
        }
        log.info("job {} ({}) attempt {} told to stop {}", job.jobId(), job.jobType(), job.attempt(), why);
        return true;
    }

    PushedJob job() {
        return job;
    }

    void ended(JobCallback outcome) {
        this.outcome = outcome;
    }

    /** Null while it runs. */
    JobCallback outcome() {
        return outcome;
    }
}
