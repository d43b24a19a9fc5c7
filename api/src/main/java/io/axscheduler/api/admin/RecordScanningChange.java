package io.axscheduler.api.admin;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Records that an admin paused or resumed a node's scanning, before it takes effect: a node that claims no job and
 * fires no schedule says who made it so.
 */
public record RecordScanningChange(String node, boolean scanning) {

    @TargetAggregateIdentifier
    public String trailId() {
        return AdminTrails.scanning(node);
    }
}
