package io.axscheduler.query.admin;

import io.axscheduler.api.admin.RequestProjectionRebuild;
import io.axscheduler.api.problem.IllegalTransitionException;
import io.axscheduler.api.problem.NotFoundException;
import io.axscheduler.api.security.Caller;
import io.axscheduler.query.job.JobQueueProjection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RestController;

/** Operator endpoints for the read models, which are disposable and rebuilt from the event store. */
@RestController
public class ProjectionAdminController {

    private static final Logger log = LoggerFactory.getLogger(ProjectionAdminController.class);

    private final Map<String, ProjectionRebuild> rebuilds = new TreeMap<>();
    private final CommandGateway commands;

    public ProjectionAdminController(List<ProjectionRebuild> rebuilds, CommandGateway commands) {
        rebuilds.forEach(r -> this.rebuilds.put(r.name(), r));
        this.commands = commands;
    }

    /**
     * {@code POST /api/v1/admin/projections/{name}/rebuild}: {@code job-queue} rebuilds job_queue in one transaction
     * and answers {@code {"events": N, "jobs": M}} (run it while nodes are quiet; see {@link RebuildJobQueue});
     * {@code console-stats} replays the event store into the console's statistics (see {@link RebuildStats}).
     * An unknown name is a 404. The request is recorded (ProjectionRebuildRequested, with the actor) before the
     * rebuild runs, so a rebuild that fails half-way still leaves who started it.
     */
    @PostMapping("/api/v1/admin/projections/{name}/rebuild")
    public Object rebuild(@PathVariable("name") String name, @RequestAttribute(Caller.ATTRIBUTE) Caller caller) {
        ProjectionRebuild rebuild = rebuilds.get(name);
        if (rebuild == null) throw new NotFoundException("projection", name);
        commands.sendAndWait(GenericCommandMessage.asCommandMessage(
                        new RequestProjectionRebuild(UUID.randomUUID().toString(), name))
                .andMetaData(Caller.metadataOf(caller)));
        try {
            return rebuild.rebuild();
        } catch (org.springframework.dao.DuplicateKeyException
                | org.springframework.dao.PessimisticLockingFailureException busy) {
            // job-queue's replay is one transaction: a live write that met its rows rolled it back, nothing changed
            if (!JobQueueProjection.PROCESSING_GROUP.equals(name)) throw busy;
            log.warn("the {} rebuild met a write made while it ran and was rolled back", name, busy);
            throw new IllegalTransitionException("the " + name + " rebuild met a change written while it ran, and was"
                    + " rolled back: run it while the nodes are quiet (no submits, scans or runs; stop the other nodes"
                    + " or set AX_SCHEDULER_SCAN_ENABLED=false on all)");
        }
    }
}
