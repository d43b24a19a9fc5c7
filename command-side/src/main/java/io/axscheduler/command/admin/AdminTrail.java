package io.axscheduler.command.admin;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import io.axscheduler.api.admin.AdminTrails;
import io.axscheduler.api.admin.AlertRuleCreated;
import io.axscheduler.api.admin.AlertRuleDeleted;
import io.axscheduler.api.admin.AlertRuleUpdated;
import io.axscheduler.api.admin.ApiKeyCreated;
import io.axscheduler.api.admin.ApiKeyRevoked;
import io.axscheduler.api.admin.ConsoleUserCreated;
import io.axscheduler.api.admin.ConsoleUserDeleted;
import io.axscheduler.api.admin.CreateApiKey;
import io.axscheduler.api.admin.CreateConsoleUser;
import io.axscheduler.api.admin.DeleteConsoleUser;
import io.axscheduler.api.admin.ProjectionRebuildRequested;
import io.axscheduler.api.admin.RecordAlertRuleChange;
import io.axscheduler.api.admin.RecordScanningChange;
import io.axscheduler.api.admin.RecordWorkerRemoval;
import io.axscheduler.api.admin.RequestProjectionRebuild;
import io.axscheduler.api.admin.RevokeApiKey;
import io.axscheduler.api.admin.ScanningPaused;
import io.axscheduler.api.admin.ScanningResumed;
import io.axscheduler.api.admin.WorkerRemoved;
import java.util.List;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateCreationPolicy;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.modelling.command.CreationPolicy;
import org.axonframework.spring.stereotype.Aggregate;

/**
 * The event-store record of an admin action on one key, one user name, one alert rule, one rebuild request, one
 * worker taken out or one node's scanning, with its actor in the metadata like every other event. The tables (api_keys, console_users) decide what is allowed — a taken name, an
 * unknown id — and are written in the same transaction as these events, so the two agree. Every handler creates the
 * stream when it is missing: keys and users made before the trail existed are revoked and deleted like any other,
 * and a user name deleted and made again continues its stream.
 */
@Aggregate(type = AdminTrails.TYPE)
class AdminTrail {

    @AggregateIdentifier
    private String trailId;

    AdminTrail() {}

    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.CREATE_IF_MISSING)
    void handle(CreateApiKey c) {
        apply(new ApiKeyCreated(c.keyId(), c.name(), List.copyOf(c.grants()), c.expiresAt()));
    }

    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.CREATE_IF_MISSING)
    void handle(RevokeApiKey c) {
        apply(new ApiKeyRevoked(c.keyId(), c.name()));
    }

    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.CREATE_IF_MISSING)
    void handle(CreateConsoleUser c) {
        apply(new ConsoleUserCreated(c.username(), List.copyOf(c.grants())));
    }

    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.CREATE_IF_MISSING)
    void handle(DeleteConsoleUser c) {
        apply(new ConsoleUserDeleted(c.username()));
    }

    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.CREATE_IF_MISSING)
    void handle(RecordAlertRuleChange c) {
        switch (c.change()) {
            case CREATED -> apply(new AlertRuleCreated(c.name(), c.rule()));
            case UPDATED -> apply(new AlertRuleUpdated(c.name(), c.rule()));
            case DELETED -> apply(new AlertRuleDeleted(c.name()));
        }
    }

    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.CREATE_IF_MISSING)
    void handle(RequestProjectionRebuild c) {
        apply(new ProjectionRebuildRequested(c.rebuildId(), c.name()));
    }

    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.CREATE_IF_MISSING)
    void handle(RecordWorkerRemoval c) {
        apply(new WorkerRemoved(c.workerId(), c.app(), c.namespace(), c.address(), c.reason()));
    }

    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.CREATE_IF_MISSING)
    void handle(RecordScanningChange c) {
        apply(c.scanning() ? new ScanningResumed(c.node()) : new ScanningPaused(c.node()));
    }

    @EventSourcingHandler
    void on(ApiKeyCreated e) {
        trailId = AdminTrails.key(e.keyId());
    }

    @EventSourcingHandler
    void on(ApiKeyRevoked e) {
        trailId = AdminTrails.key(e.keyId());
    }

    @EventSourcingHandler
    void on(ConsoleUserCreated e) {
        trailId = AdminTrails.user(e.username());
    }

    @EventSourcingHandler
    void on(ConsoleUserDeleted e) {
        trailId = AdminTrails.user(e.username());
    }

    @EventSourcingHandler
    void on(AlertRuleCreated e) {
        trailId = AdminTrails.alertRule(e.name());
    }

    @EventSourcingHandler
    void on(AlertRuleUpdated e) {
        trailId = AdminTrails.alertRule(e.name());
    }

    @EventSourcingHandler
    void on(AlertRuleDeleted e) {
        trailId = AdminTrails.alertRule(e.name());
    }

    @EventSourcingHandler
    void on(ProjectionRebuildRequested e) {
        trailId = AdminTrails.rebuild(e.rebuildId());
    }

    @EventSourcingHandler
    void on(WorkerRemoved e) {
        trailId = AdminTrails.worker(e.workerId());
    }

    @EventSourcingHandler
    void on(ScanningPaused e) {
        trailId = AdminTrails.scanning(e.node());
    }

    @EventSourcingHandler
    void on(ScanningResumed e) {
        trailId = AdminTrails.scanning(e.node());
    }
}
