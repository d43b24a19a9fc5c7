package io.axscheduler.api.admin;

import io.axscheduler.api.security.Grant;
import java.time.Instant;
import java.util.List;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Records that an API key was made; the key and its hash never travel in a message. */
public record CreateApiKey(String keyId, String name, List<Grant> grants, Instant expiresAt) {

    @TargetAggregateIdentifier
    public String trailId() {
        return AdminTrails.key(keyId);
    }
}
