package io.axscheduler.scheduler.alert;

import com.fasterxml.jackson.databind.JsonNode;
import io.axscheduler.api.problem.NotFoundException;
import io.axscheduler.api.security.Access;
import io.axscheduler.api.security.Caller;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code /api/v1/alerts/rules}: list, read, create, change and remove alert rules. */
@RestController
@RequestMapping("/api/v1/alerts/rules")
public class AlertRuleController {

    private final AlertRules rules;

    public AlertRuleController(AlertRules rules) {
        this.rules = rules;
    }

    @GetMapping
    public Map<String, List<AlertRule>> list(@RequestAttribute(Caller.ATTRIBUTE) Caller caller) {
        return Map.of(
                "items", rules.all().stream().filter(r -> visible(r, caller)).toList());
    }

    @GetMapping("/{name}")
    public AlertRule find(@PathVariable("name") String name, @RequestAttribute(Caller.ATTRIBUTE) Caller caller) {
        AlertRule rule = rules.find(name);
        if (!visible(rule, caller)) throw new NotFoundException("alert rule", name);
        return rule;
    }

    static boolean visible(AlertRule rule, Caller caller) {
        return Access.seesAlertRule(
                caller, rule.filter() == null ? null : rule.filter().namespace());
    }

    @PostMapping
    public ResponseEntity<AlertRule> create(
            @RequestBody JsonNode body, @RequestAttribute(Caller.ATTRIBUTE) Caller caller) {
        return ResponseEntity.status(HttpStatus.CREATED).body(rules.create(AlertRuleBody.read(body), caller));
    }

    @PutMapping("/{name}")
    public AlertRule update(
            @PathVariable("name") String name,
            @RequestBody JsonNode body,
            @RequestAttribute(Caller.ATTRIBUTE) Caller caller) {
        return rules.update(name, AlertRuleBody.read(body), caller);
    }

    @DeleteMapping("/{name}")
    public ResponseEntity<Void> delete(
            @PathVariable("name") String name, @RequestAttribute(Caller.ATTRIBUTE) Caller caller) {
        rules.delete(name, caller);
        return ResponseEntity.noContent().build();
    }
}
