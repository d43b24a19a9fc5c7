package io.axscheduler.query.job;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;
import java.util.Map;

/** One event of a job's stream as the audit endpoint shows it. */
public record HistoryEvent(long sequence, String type, Instant timestamp, JsonNode payload, Map<String, Object> metadata) {
}
