package io.axscheduler.query;

import io.axscheduler.api.problem.FieldError;
import java.util.List;

/** Query parameters of the read API, parsed from their raw strings so a bad one is a 400 naming it. */
public final class QueryParameters {

    private QueryParameters() {}

    /**
     * A whole number from {@code min} to {@code max}; {@code absent} when blank or missing. A value that is not one, or
     * is out of range, adds an error naming {@code field} and its range (the upper end too: a page number past it is
     * refused as well, and "at least 0" would not say why) and gives {@code absent}.
     */
    public static int wholeNumber(String field, String raw, int absent, int min, int max, List<FieldError> errors) {
        if (raw == null || raw.isBlank()) return absent;
        try {
            int value = Integer.parseInt(raw.trim());
            if (value >= min && value <= max) return value;
        } catch (NumberFormatException e) {
            // the same answer as a number out of range
        }
        errors.add(new FieldError(field, "must be a whole number from " + min + " to " + max));
        return absent;
    }
}
