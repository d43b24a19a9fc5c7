package io.axscheduler.query.alert;

import io.axscheduler.api.security.Caller;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/v1/alerts}: firing and resolved alerts, newest first. */
@RestController
@RequestMapping("/api/v1/alerts")
public class AlertQueryController {

    private final AlertQueries alerts;

    public AlertQueryController(AlertQueries alerts) {
        this.alerts = alerts;
    }

    @GetMapping
    public Map<String, Object> list(
            @RequestParam(name = "state", required = false) String state,
            @RequestParam(name = "rule", required = false) String rule,
            @RequestParam(name = "size", defaultValue = "100") int size,
            @RequestAttribute(Caller.ATTRIBUTE) Caller caller) {
        return alerts.list(state, rule, size, caller);
    }
}
