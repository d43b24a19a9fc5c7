package io.axscheduler.api.problem;

/** One reason a request was refused, naming the JSON field (dotted path, e.g. {@code jobs[3].backoff.maxMs}). */
public record FieldError(String field, String message) {}
