package io.axscheduler.query.history;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Map;

/** One event of a job's or a schedule's stream as the audit endpoints show it. */
public record HistoryEvent(
        long sequence, String type, Instant timestamp, JsonNode payload, Map<String, Object> metadata) {}
