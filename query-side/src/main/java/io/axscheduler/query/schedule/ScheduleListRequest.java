package io.axscheduler.query.schedule;

import io.axscheduler.api.problem.FieldError;
import io.axscheduler.api.problem.InvalidRequestException;
import io.axscheduler.api.schedule.ScheduleState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The filters and page of {@code GET /api/v1/schedules}; deleted schedules show only when asked for by state. */
public record ScheduleListRequest(String name, ScheduleState state, int page, int size) {

    public static final int DEFAULT_SIZE = 50;
    public static final int MAX_SIZE = 500;

    public static ScheduleListRequest parse(String name, String state, String page, String size) {
        List<FieldError> errors = new ArrayList<>();
        ScheduleState parsedState = null;
        if (state != null && !state.isBlank()) {
            try {
                parsedState = ScheduleState.valueOf(state.trim());
            } catch (IllegalArgumentException e) {
                errors.add(new FieldError("state", "must be one of " + Arrays.toString(ScheduleState.values())));
            }
        }
        int p = parseInt("page", page, 0, 0, Integer.MAX_VALUE, errors);
        int s = parseInt("size", size, DEFAULT_SIZE, 1, MAX_SIZE, errors);
        if (name != null && name.length() > 200) errors.add(new FieldError("name", "must be at most 200 characters"));
        if (!errors.isEmpty()) throw new InvalidRequestException(errors);
        return new ScheduleListRequest(name == null || name.isBlank() ? null : name.trim(), parsedState, p, s);
    }

    public long offset() {
        return (long) page * size;
    }

    private static int parseInt(String field, String raw, int absent, int min, int max, List<FieldError> errors) {
        if (raw == null || raw.isBlank()) return absent;
        try {
            int v = Integer.parseInt(raw.trim());
            if (v >= min && v <= max) return v;
        } catch (NumberFormatException e) {
            // same message as out of range
        }
        errors.add(new FieldError(
                field,
                // the largest page number too: a number past it is refused as well, and "at least 0" would not say why
                "must be a whole number from " + min + " to " + max));
        return absent;
    }
}
