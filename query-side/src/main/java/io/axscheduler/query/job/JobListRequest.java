package io.axscheduler.query.job;

import io.axscheduler.api.job.JobStatus;
import io.axscheduler.api.problem.FieldError;
import io.axscheduler.api.problem.InvalidRequestException;
import io.axscheduler.query.QueryParameters;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The filters and page of {@code GET /api/v1/jobs}. Parsed from raw strings so that a bad value is answered with our
 * 400 naming the field, not with Spring's conversion error. {@code cursor}: null for a numbered page, "" for the
 * first keyset page, else the {@code next} of the page before.
 */
public record JobListRequest(JobStatus status, String jobType, String scheduleId, int page, int size, String cursor) {

    public static final int DEFAULT_SIZE = 50;
    /** Bounds one answer's rows, and so its query time and memory. */
    public static final int MAX_SIZE = 500;

    /** Blank values count as absent, but a blank cursor asks for the first keyset page; every invalid field at once. */
    public static JobListRequest parse(
            String status, String jobType, String scheduleId, String page, String size, String cursor) {
        List<FieldError> errors = new ArrayList<>();
        JobStatus parsedStatus = parseStatus(status, errors);
        int parsedPage = QueryParameters.wholeNumber("page", page, 0, 0, Integer.MAX_VALUE, errors);
        int parsedSize = QueryParameters.wholeNumber("size", size, DEFAULT_SIZE, 1, MAX_SIZE, errors);
        String parsedCursor = cursor == null ? null : cursor.trim();
        if (parsedCursor != null && !parsedCursor.isEmpty() && JobListing.Cursor.parse(parsedCursor) == null) {
            errors.add(new FieldError("cursor", "must be the next of an earlier page, or empty for the first"));
        } else if (parsedCursor != null && blankToNull(page) != null) {
            errors.add(new FieldError("cursor", "cannot be combined with page"));
        }
        if (!errors.isEmpty()) {
            throw new InvalidRequestException(errors);
        }
        return new JobListRequest(
                parsedStatus, blankToNull(jobType), blankToNull(scheduleId), parsedPage, parsedSize, parsedCursor);
    }

    public long offset() {
        return (long) page * size;
    }

    private static JobStatus parseStatus(String status, List<FieldError> errors) {
        String value = blankToNull(status);
        if (value == null) {
            return null;
        }
        try {
            return JobStatus.valueOf(value);
        } catch (IllegalArgumentException e) {
            errors.add(new FieldError("status", "must be one of " + Arrays.toString(JobStatus.values())));
            return null;
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }
}
