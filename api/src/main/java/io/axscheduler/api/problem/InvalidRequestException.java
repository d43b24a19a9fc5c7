package io.axscheduler.api.problem;

import java.util.List;

/** A request that breaks the contract: answered 400 with every field error, and nothing written. */
public class InvalidRequestException extends RuntimeException {

    private final List<FieldError> errors;

    public InvalidRequestException(List<FieldError> errors) {
        super(
                errors.isEmpty()
                        ? "invalid request"
                        : errors.get(0).field() + ": " + errors.get(0).message());
        this.errors = List.copyOf(errors);
    }

    public static InvalidRequestException of(String field, String message) {
        return new InvalidRequestException(List.of(new FieldError(field, message)));
    }

    public List<FieldError> errors() {
        return errors;
    }
}
