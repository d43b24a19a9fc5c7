package io.axscheduler.query.schedule;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.axscheduler.api.Metadata;
import io.axscheduler.api.schedule.ScheduleCreated;
import io.axscheduler.api.schedule.ScheduleDeleted;
import io.axscheduler.api.schedule.SchedulePaused;
import io.axscheduler.api.schedule.ScheduleResumed;
import io.axscheduler.api.schedule.ScheduleUpdated;
import io.axscheduler.query.history.EventStreams;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.axonframework.eventhandling.DomainEventMessage;
import org.springframework.stereotype.Component;

/**
 * A schedule's configuration history from the event store: each create, update, pause, resume and delete with its
 * actor, time and the fields it changed ({@code trigger.expression: "0 * * * * ?" → "0 5 * * * ?"}). Fires and skips
 * are not configuration and are left out.
 */
@Component
public class ScheduleChanges {

    private final EventStreams streams;
    private final ObjectMapper json;

    public ScheduleChanges(EventStreams streams, ObjectMapper json) {
        this.streams = streams;
        this.json = json;
    }

    public record FieldChange(String field, JsonNode from, JsonNode to) {}

    public record Change(String change, Instant at, Object actor, Object onBehalfOf, List<FieldChange> diff) {}

    public record ChangesView(String scheduleId, List<Change> changes) {}

    public ChangesView changes(String scheduleId) {
        // the creation and the configuration changes only: a schedule's fire records may be millions
        List<DomainEventMessage<?>> events =
                new ArrayList<>(streams.readPage("schedule", scheduleId, ScheduleCreated.class, 0, 1));
        events.addAll(streams.readOfTypes(scheduleId, EventStreams.SCHEDULE_CONFIGURATION, Long.MAX_VALUE));
        List<Change> changes = new ArrayList<>();
        Map<String, JsonNode> current = Map.of();
        for (DomainEventMessage<?> event : events) {
            Object payload = event.getPayload();
            Map<String, JsonNode> next;
            String kind;
            if (payload instanceof ScheduleCreated c) {
                kind = "CREATED";
                next = definition(c.name(), c.trigger(), c.job(), c.misfirePolicy(), c.overlapPolicy());
                next.put("namespace", json.valueToTree(c.namespace()));
                next.put("paused", json.valueToTree(false));
            } else if (payload instanceof ScheduleUpdated u) {
                kind = "UPDATED";
                next = definition(u.name(), u.trigger(), u.job(), u.misfirePolicy(), u.overlapPolicy());
                next.put("namespace", current.get("namespace"));
                next.put("paused", current.get("paused"));
            } else if (payload instanceof SchedulePaused || payload instanceof ScheduleResumed) {
                kind = payload instanceof SchedulePaused ? "PAUSED" : "RESUMED";
                next = new LinkedHashMap<>(current);
                next.put("paused", json.valueToTree(payload instanceof SchedulePaused));
            } else if (payload instanceof ScheduleDeleted) {
                kind = "DELETED";
                next = new LinkedHashMap<>(current);
                next.put("deleted", json.valueToTree(true));
            } else {
                continue;
            }
            changes.add(new Change(
                    kind,
                    event.getTimestamp(),
                    event.getMetaData().get(Metadata.ACTOR),
                    event.getMetaData().get(Metadata.ON_BEHALF_OF),
                    diff(current, next)));
            current = next;
        }
        return new ChangesView(scheduleId, changes);
    }

    private Map<String, JsonNode> definition(Object name, Object trigger, Object job, Object misfire, Object overlap) {
        ObjectNode node = json.createObjectNode();
        node.set("name", json.valueToTree(name));
        node.set("trigger", json.valueToTree(trigger));
        node.set("job", json.valueToTree(job));
        node.set("misfirePolicy", json.valueToTree(misfire));
        node.set("overlapPolicy", json.valueToTree(overlap));
        Map<String, JsonNode> flat = new LinkedHashMap<>();
        flatten("", node, flat);
        return flat;
    }

    /** Objects become dotted paths; arrays and values are compared whole. */
    private static void flatten(String prefix, JsonNode node, Map<String, JsonNode> into) {
        if (node != null && node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                flatten(prefix.isEmpty() ? field.getKey() : prefix + "." + field.getKey(), field.getValue(), into);
            }
        } else if (node != null && !node.isNull()) {
            into.put(prefix, node);
        }
    }

    private static List<FieldChange> diff(Map<String, JsonNode> before, Map<String, JsonNode> after) {
        Set<String> fields = new LinkedHashSet<>(before.keySet());
        fields.addAll(after.keySet());
        List<FieldChange> diff = new ArrayList<>();
        for (String field : fields) {
            JsonNode from = before.get(field);
            JsonNode to = after.get(field);
            if (!Objects.equals(from, to)) diff.add(new FieldChange(field, from, to));
        }
        return diff;
    }
}
