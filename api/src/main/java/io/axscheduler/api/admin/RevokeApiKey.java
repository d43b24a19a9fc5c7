package io.axscheduler.api.admin;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Records that an API key was revoked. */
public record RevokeApiKey(String keyId, String name) {

    @TargetAggregateIdentifier
    public String trailId() {
        return AdminTrails.key(keyId);
    }
}
