package io.axscheduler.query.admin;

import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/** Operator endpoints for the read models, which are disposable and rebuilt from the event store. */
@RestController
public class ProjectionAdminController {

    private final RebuildJobQueue rebuildJobQueue;

    public ProjectionAdminController(RebuildJobQueue rebuildJobQueue) {
        this.rebuildJobQueue = rebuildJobQueue;
    }

    /**
     * {@code POST /api/v1/admin/projections/job-queue/rebuild} → {@code {"events": N, "jobs": M}}. Rebuilds job_queue
     * from every job event in the store, in one transaction. Run it while nodes are quiet; see {@link RebuildJobQueue}.
     */
    @PostMapping("/api/v1/admin/projections/job-queue/rebuild")
    public RebuildResult rebuildJobQueue() {
        return rebuildJobQueue.rebuild();
    }
}
