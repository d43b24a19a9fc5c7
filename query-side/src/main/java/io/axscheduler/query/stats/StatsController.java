package io.axscheduler.query.stats;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The console's figures as JSON, for other tools. */
@RestController
public class StatsController {

    private final StatsQueries stats;

    public StatsController(StatsQueries stats) {
        this.stats = stats;
    }

    @GetMapping("/api/v1/stats/overview")
    public Overview overview(@RequestParam(name = "namespace", required = false) String namespace) {
        return stats.overview(namespace);
    }
}
