package io.axscheduler.api.admin;

import java.util.Map;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Records an alert rule made, changed or removed through the API, in the transaction that writes the rule: who
 * changed what an alert watches and whom it tells. {@code rule} is the rule as stored (null for a removal).
 */
public record RecordAlertRuleChange(String name, AlertRuleChange change, Map<String, Object> rule) {

    @TargetAggregateIdentifier
    public String trailId() {
        return AdminTrails.alertRule(name);
    }
}
