package io.axscheduler.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.axscheduler.api.IsoInstants;
import io.axscheduler.api.problem.FieldError;
import io.axscheduler.api.problem.InvalidRequestException;
import io.axscheduler.api.schedule.FireTimes;
import io.axscheduler.api.schedule.InvalidTriggerException;
import io.axscheduler.api.schedule.Trigger;
import io.axscheduler.api.schedule.TriggerType;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseBody;

/**
 * The schedule form's preview of a fixed-rate, fixed-delay or once trigger (a cron expression is previewed by
 * {@code POST /api/v1/cron/validate}, which knows cron only): the trigger is built as the schedule API builds it, so it
 * refuses what {@link Trigger} refuses, and its next fires come from {@link FireTimes} with the anchor a schedule made
 * now would get. What only the schedule API checks (the floor on intervals) is reported when the form is saved.
 */
@Controller
class TriggerPreview {

    static final int COUNT = 5;

    private final Clock clock;

    TriggerPreview(Clock clock) {
        this.clock = clock;
    }

    @PostMapping("/console/schedules/preview")
    @ResponseBody
    Map<String, Object> preview(@RequestBody JsonNode body) {
        if (body == null || !body.isObject()) throw InvalidRequestException.of("body", "must be a JSON object");
        Instant now = clock.instant();
        Trigger trigger;
        try {
            TriggerType type = TriggerType.fromWireName(body.path("type").asText(""));
            if (type == null || type == TriggerType.CRON) {
                throw new InvalidTriggerException("type", "must be one of fixedRate, fixedDelay, once");
            }
            trigger = new Trigger(
                    type,
                    null,
                    null,
                    null,
                    millis(body, "intervalMs"),
                    millis(body, "delayMs"),
                    instant(body, "at"),
                    instant(body, "startAt"));
        } catch (InvalidTriggerException e) {
            throw new InvalidRequestException(List.of(new FieldError("trigger." + e.field(), e.reason())));
        }
        if (trigger.type() == TriggerType.ONCE && !trigger.at().isAfter(now)) {
            throw InvalidRequestException.of("trigger.at", "must lie in the future; now is " + IsoInstants.millis(now));
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("valid", true);
        answer.put("type", trigger.type());
        answer.put("timezone", "UTC");
        answer.put("description", FireTimes.describe(trigger));
        answer.put("nextFireTimes", FireTimes.preview(trigger, now, now, COUNT));
        answer.put("firesPerDay", FireTimes.firesPerDay(trigger, now, now));
        return answer;
    }

    private static Long millis(JsonNode body, String field) {
        JsonNode v = body.get(field);
        if (v == null || v.isNull() || (v.isTextual() && v.asText().isBlank())) return null;
        if (!v.isIntegralNumber() && !(v.isTextual() && v.asText().matches("-?\\d{1,18}")))
            throw new InvalidTriggerException(field, "must be a whole number of milliseconds");
        return v.asLong();
    }

    /** An ISO instant, or a datetime-local value taken as UTC, as everywhere in the console. */
    private static Instant instant(JsonNode body, String field) {
        JsonNode v = body.get(field);
        if (v == null || v.isNull() || v.asText().isBlank()) return null;
        try {
            return ConsolePages.instant(field, v.asText(), null);
        } catch (InvalidRequestException e) {
            throw new InvalidTriggerException(field, "must be an ISO-8601 instant, e.g. 2026-11-30T10:00:00Z");
        }
    }
}
