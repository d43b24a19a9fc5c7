package io.axscheduler.deploy;

import io.axscheduler.api.spi.JobContext;
import io.axscheduler.api.spi.JobHandler;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.stereotype.Component;

/**
 * Job type {@code count}: records every execution in a JVM-wide map, so that tests running several nodes in one JVM
 * can see a job executed twice, whichever nodes ran it, and when each run began (this JVM's clock). {@code params.ms}
 * makes it take that long.
 */
@Component
class CountingJobHandler implements JobHandler {

    static final Map<String, AtomicInteger> executions = new ConcurrentHashMap<>();
    static final Map<String, String> executedOn = new ConcurrentHashMap<>();
    static final Map<String, Long> startedAtMs = new ConcurrentHashMap<>();
    /** The fire time a schedule's job was made for, as its handler reads it from its context. */
    static final Map<String, java.time.Instant> scheduledFireTimes = new ConcurrentHashMap<>();
    /** The schedule a job's handler was told made it. */
    static final Map<String, String> scheduleIds = new ConcurrentHashMap<>();

    @Override
    public String jobType() {
        return "count";
    }

    @Override
    public String execute(JobContext context) throws Exception {
        startedAtMs.putIfAbsent(context.jobId(), System.currentTimeMillis());
        executions.computeIfAbsent(context.jobId(), id -> new AtomicInteger()).incrementAndGet();
        executedOn.put(context.jobId(), Thread.currentThread().getName());
        context.scheduledFireTime().ifPresent(t -> scheduledFireTimes.put(context.jobId(), t));
        context.scheduleId().ifPresent(s -> scheduleIds.put(context.jobId(), s));
        Object ms = context.params().get("ms");
        if (ms instanceof Number n && n.longValue() > 0 && context.awaitCancellation(n.longValue())) {
            throw new InterruptedException("cancelled");
        }
        return "counted";
    }
}
