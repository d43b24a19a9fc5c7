package io.axscheduler.query.admin;

import io.axscheduler.api.problem.NotFoundException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/** Operator endpoints for the read models, which are disposable and rebuilt from the event store. */
@RestController
public class ProjectionAdminController {

    private final Map<String, ProjectionRebuild> rebuilds = new TreeMap<>();

    public ProjectionAdminController(List<ProjectionRebuild> rebuilds) {
        rebuilds.forEach(r -> this.rebuilds.put(r.name(), r));
    }

    /**
     * {@code POST /api/v1/admin/projections/{name}/rebuild}: {@code job-queue} rebuilds job_queue in one transaction
     * and answers {@code {"events": N, "jobs": M}} (run it while nodes are quiet; see {@link RebuildJobQueue});
     * {@code console-stats} replays the event store into the console's statistics (see {@link RebuildStats}).
     * An unknown name is a 404.
     */
    @PostMapping("/api/v1/admin/projections/{name}/rebuild")
    public Object rebuild(@PathVariable("name") String name) {
        ProjectionRebuild rebuild = rebuilds.get(name);
        if (rebuild == null) throw new NotFoundException("projection", name);
        return rebuild.rebuild();
    }
}
