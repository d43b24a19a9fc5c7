package io.axscheduler.query.observe;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.Metadata;
import io.axscheduler.api.admin.AdminTrails;
import io.axscheduler.api.admin.ScanningPaused;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Who paused a node's scanning, from the admin trail: the node's last scanning event, when it is a pause recorded since
 * the node started (a pause does not outlive a restart, so an older one says nothing of a node switched off by its
 * configuration). One read of the stream's last row by the event store's unique key, asked only of a node that does
 * not scan.
 */
@Component
public class ScanningPauses {

    /** An admin's pause: its actor, and when it was recorded. */
    public record Pause(String by, Instant at) {}

    private final NamedParameterJdbcTemplate jdbc;
    private final ObjectMapper json;

    public ScanningPauses(NamedParameterJdbcTemplate jdbc, ObjectMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    public Optional<Pause> of(String nodeId, long startedAtMs) {
        return jdbc
                .query(
                        "SELECT payloadType, timeStamp, metaData FROM DomainEventEntry WHERE aggregateIdentifier = :id"
                                + " ORDER BY sequenceNumber DESC LIMIT 1",
                        Map.of("id", AdminTrails.scanning(nodeId)),
                        (rs, i) -> {
                            if (!ScanningPaused.class.getName().equals(rs.getString(1))) return null;
                            Instant at;
                            try {
                                at = Instant.parse(rs.getString(2));
                            } catch (DateTimeParseException e) {
                                return null;
                            }
                            return at.toEpochMilli() < startedAtMs ? null : new Pause(actorOf(rs.getBytes(3)), at);
                        })
                .stream()
                .filter(Objects::nonNull)
                .findFirst();
    }

    private String actorOf(byte[] metaData) {
        try {
            return json.readTree(metaData).path(Metadata.ACTOR).asText("?");
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }
}
