package io.axscheduler.api.problem;

/**
 * A name that must be unique is taken (an API key's, a console user's, an alert rule's): answered 409 as a conflict
 * with what exists, titled so rather than as a state machine's refusal.
 */
public class AlreadyExistsException extends IllegalTransitionException {

    public AlreadyExistsException(String message) {
        super(message);
    }
}
