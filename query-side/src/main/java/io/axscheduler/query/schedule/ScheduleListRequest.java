package io.axscheduler.query.schedule;

import io.axscheduler.api.problem.FieldError;
import io.axscheduler.api.problem.InvalidRequestException;
import io.axscheduler.api.schedule.ScheduleState;
import io.axscheduler.query.QueryParameters;
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
        int p = QueryParameters.wholeNumber("page", page, 0, 0, Integer.MAX_VALUE, errors);
        int s = QueryParameters.wholeNumber("size", size, DEFAULT_SIZE, 1, MAX_SIZE, errors);
        if (name != null && name.length() > 200) errors.add(new FieldError("name", "must be at most 200 characters"));
        if (!errors.isEmpty()) throw new InvalidRequestException(errors);
        return new ScheduleListRequest(name == null || name.isBlank() ? null : name.trim(), parsedState, p, s);
    }

    public long offset() {
        return (long) page * size;
    }
}
