package io.axscheduler.api.problem;

/** The caller may see the thing but not do this to it: answered 403. */
public class ForbiddenException extends RuntimeException {

    public ForbiddenException(String message) {
        super(message);
    }
}
