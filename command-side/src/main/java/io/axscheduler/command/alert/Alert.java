package io.axscheduler.command.alert;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import io.axscheduler.api.alert.AlertRaised;
import io.axscheduler.api.alert.AlertResolved;
import io.axscheduler.api.alert.AlertType;
import io.axscheduler.api.alert.RaiseAlert;
import io.axscheduler.api.alert.ResolveAlert;
import java.util.List;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.spring.stereotype.Aggregate;

/**
 * One alert, from raised to resolved: its events are the audit trail of who was told what and when. Resolving one
 * that is already resolved changes nothing.
 */
@Aggregate
class Alert {

    @AggregateIdentifier
    private String alertId;

    private String rule;
    private AlertType type;
    private String key;
    private List<String> channels;
    private boolean notified;
    private boolean resolved;

    Alert() {}

    @CommandHandler
    Alert(RaiseAlert c) {
        apply(new AlertRaised(
                c.alertId(),
                c.rule(),
                c.type(),
                c.key(),
                c.message(),
                c.details(),
                c.channels() == null ? List.of() : List.copyOf(c.channels()),
                c.notified(),
                c.namespace()));
    }

    @CommandHandler
    void handle(ResolveAlert c) {
        if (resolved) return;
        apply(new AlertResolved(alertId, rule, type, key, c.message(), channels, notified));
    }

    @EventSourcingHandler
    void on(AlertRaised e) {
        alertId = e.alertId();
        rule = e.rule();
        type = e.type();
        key = e.key();
        channels = e.channels();
        notified = e.notified();
    }

    @EventSourcingHandler
    void on(AlertResolved e) {
        resolved = true;
    }
}
