package io.axscheduler.api.admin;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Records that a console user was deleted. */
public record DeleteConsoleUser(String username) {

    @TargetAggregateIdentifier
    public String trailId() {
        return AdminTrails.user(username);
    }
}
