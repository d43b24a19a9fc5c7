package io.axscheduler.scheduler.observe;

import io.axscheduler.scheduler.NodeMetrics;
import io.axscheduler.scheduler.run.JobExecutors;
import org.springframework.stereotype.Component;

/** ax_pool_active and ax_dispatch_queue_depth for each job type a handler on this node runs. */
@Component
class PoolGauges {

    PoolGauges(JobExecutors executors, NodeMetrics metrics) {
        for (String type : executors.inProcessTypes()) {
            metrics.pool(type, executors, e -> e.active(type), e -> e.queued(type));
        }
    }
}
