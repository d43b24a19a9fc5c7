package io.axscheduler.scheduler;

import io.axscheduler.api.observe.BoundedLabels;
import io.axscheduler.api.observe.LatencyBuckets;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * This node's own metrics of the scan, the pools and the remote workers: the hooks the scan loop, the dispatcher and
 * the push path call. Cluster-wide figures (jobs by status, schedules behind) come from the read models instead, and
 * job outcomes from the event stream, so nothing here is counted twice across nodes.
 */
@Component
public class NodeMetrics {

    /** Job types and apps are named by users: each label keeps at most this many values. */
    static final int MAX_LABEL_VALUES = 200;

    private final MeterRegistry registry;
    private final String node;
    private final Timer scanDuration;
    private final Counter scanClaimed;
    private final Counter startedAtFire;
    private final BoundedLabels apps = new BoundedLabels(MAX_LABEL_VALUES);
    private final BoundedLabels reasons = new BoundedLabels(20);
    /** The reasons a worker callback is refused for (ReceiveCallback, CallbackVerifier's verdicts in lower case). */
    static final java.util.List<String> CALLBACK_REFUSALS = java.util.List.of(
            "unsigned", "stale", "bad_signature", "replayed", "unreadable", "namespace", "principal", "unknown_worker");

    private volatile double lastScanSeconds;

    public NodeMetrics(ObjectProvider<MeterRegistry> registry, NodeProperties node) {
        this.registry = registry.getIfAvailable(SimpleMeterRegistry::new);
        this.node = node.id();
        this.scanDuration = Timer.builder("ax.scan.duration")
                .description("time of one claim pass of this node's job scan")
                .serviceLevelObjectives(LatencyBuckets.edges())
                .register(this.registry);
        this.scanClaimed = Counter.builder("ax.scan.claimed")
                .description("jobs claimed by this node's scans")
                .register(this.registry);
        this.startedAtFire = Counter.builder("ax.fires.started")
                .description("jobs of due schedule fires this node claimed and started in the fire's own transaction")
                .register(this.registry);
        // at 0 from the start, each reason a callback is refused for: an alert on the rate sees a series at once
        for (String reason : CALLBACK_REFUSALS) {
            this.registry.counter("ax.callbacks.rejected", "reason", reasons.of(reason));
        }
        Gauge.builder("ax.scan.last.success.timestamp.seconds", this, m -> m.lastScanSeconds)
                .description("when this node's job scan last completed (epoch seconds)")
                .tag("node", this.node)
                .register(this.registry);
    }

    public MeterRegistry registry() {
        return registry;
    }

    /** A scan pass completed: how long it took and what it claimed. */
    public void scanned(long nanos, int claimed, long completedAtEpochMs) {
        scanDuration.record(nanos, TimeUnit.NANOSECONDS);
        scanClaimed.increment(claimed);
        lastScanSeconds = completedAtEpochMs / 1000.0;
    }

    /** A fire's transaction committed with {@code jobs} of its due jobs claimed and started in it. */
    public void startedAtFire(int jobs) {
        startedAtFire.increment(jobs);
    }

    /** A paused scan still counts as completed for health; the timestamp follows it, the duration does not. */
    public void scanSkipped(long completedAtEpochMs) {
        lastScanSeconds = completedAtEpochMs / 1000.0;
    }

    /** Registers the per-type pool gauges of an in-process job type. */
    public <T> void pool(String jobType, T pool, ToDoubleFunction<T> active, ToDoubleFunction<T> queued) {
        Gauge.builder("ax.pool.active", pool, active)
                .description("jobs running on this node's pool of the type")
                .tag("job_type", jobType)
                .register(registry);
        Gauge.builder("ax.dispatch.queue.depth", pool, queued)
                .description("started jobs waiting for a thread of this node's pool of the type")
                .tag("job_type", jobType)
                .register(registry);
    }

    public void pushFailed(String app) {
        registry.counter("ax.worker.push.failures", "app", apps.of(app)).increment();
    }

    public void callbackRejected(String reason) {
        registry.counter("ax.callbacks.rejected", "reason", reasons.of(reason)).increment();
    }

    public String node() {
        return node;
    }
}
