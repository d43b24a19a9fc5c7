package io.axscheduler.api.admin;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Records that a read model's rebuild was asked for, before it runs: a rebuild that fails still leaves its request. */
public record RequestProjectionRebuild(String rebuildId, String name) {

    @TargetAggregateIdentifier
    public String trailId() {
        return AdminTrails.rebuild(rebuildId);
    }
}
