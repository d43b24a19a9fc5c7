package io.axscheduler.api.admin;

import io.axscheduler.api.security.Grant;
import java.util.List;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Records that a console user was made; the password and its hash never travel in a message. */
public record CreateConsoleUser(String username, List<Grant> grants) {

    @TargetAggregateIdentifier
    public String trailId() {
        return AdminTrails.user(username);
    }
}
