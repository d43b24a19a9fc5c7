package io.axscheduler.api.spi;

import java.util.Map;

/** What a handler knows of the attempt it runs. */
public interface JobContext {

    String jobId();

    String jobType();

    /** 1 for the first run, 2 for the first retry, … */
    int attempt();

    /** The job's {@code jobKey}, or its id when it has none: hand it to downstream systems to de-duplicate. */
    String idempotencyKey();

    Map<String, Object> params();

    /** True once the job was canceled, timed out or the node is shutting down: stop as soon as is safe. */
    boolean isCancelled();

    /** Waits up to {@code millis}, returning early (true) when the attempt is cancelled. */
    boolean awaitCancellation(long millis) throws InterruptedException;
}
