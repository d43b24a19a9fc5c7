package io.axscheduler.api.admin;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Records that a worker was taken out (by an admin, by the revocation or expiry of the key that registered it, or
 * replaced by another process at its address), in the transaction that removes it: who barred a worker, and why.
 */
public record RecordWorkerRemoval(String workerId, String app, String namespace, String address, String reason) {

    @TargetAggregateIdentifier
    public String trailId() {
        return AdminTrails.worker(workerId);
    }
}
