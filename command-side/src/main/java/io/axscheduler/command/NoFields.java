package io.axscheduler.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.axscheduler.api.problem.FieldError;
import io.axscheduler.api.problem.InvalidRequestException;
import java.util.ArrayList;
import java.util.List;

/**
 * The body of a request that takes none (retry, pause, resume, trigger): absent, empty or {@code {}}; strict input
 * holds here too, so a field meant for something else is refused rather than silently ignored.
 */
public final class NoFields {

    private NoFields() {}

    public static void require(JsonNode body) {
        if (body == null || body.isNull() || body.isMissingNode()) return;
        List<FieldError> errors = new ArrayList<>();
        if (!body.isObject()) {
            errors.add(new FieldError("body", "must be empty or {}"));
        } else {
            body.fieldNames().forEachRemaining(name -> errors.add(new FieldError(name, "is not a known field")));
        }
        if (!errors.isEmpty()) throw new InvalidRequestException(errors);
    }
}
