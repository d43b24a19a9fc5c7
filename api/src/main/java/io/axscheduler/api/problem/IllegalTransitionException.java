package io.axscheduler.api.problem;

/** A move the state machine does not allow from where the thing stands now: answered 409. */
public class IllegalTransitionException extends RuntimeException {

    public IllegalTransitionException(String message) {
        super(message);
    }
}
