package io.axscheduler.query.stats;

import io.axscheduler.api.security.Access;
import io.axscheduler.api.security.Caller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The console's figures as JSON, for other tools: of the namespaces the caller may see. */
@RestController
public class StatsController {

    private final StatsQueries stats;

    public StatsController(StatsQueries stats) {
        this.stats = stats;
    }

    @GetMapping("/api/v1/stats/overview")
    public Overview overview(
            @RequestParam(name = "namespace", required = false) String namespace,
            @RequestAttribute(name = Caller.ATTRIBUTE, required = false) Caller caller) {
        String label = namespace == null || namespace.isBlank() ? null : namespace.trim();
        return stats.overview(label, Access.listable(caller, label));
    }
}
