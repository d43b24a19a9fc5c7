package io.axscheduler.query.explain;

import java.time.Instant;
import java.util.Map;

/** One reason a job or a schedule is where it is: a stable code, a sentence, since when, and what it concerns. */
public record Reason(String code, String message, Instant since, Map<String, Object> details) {

    public Reason {
        details = details == null ? Map.of() : details;
    }
}
