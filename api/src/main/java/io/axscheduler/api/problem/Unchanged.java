package io.axscheduler.api.problem;

/**
 * A command that asks for what its aggregate already is (pause a paused schedule, resume an active one), so changes
 * nothing. Thrown by the aggregate instead of quietly appending nothing: decided on a state this node had cached,
 * which another node may have moved on since, it is decided again on the store's state, like a refusal
 * ({@link RefusedOnCachedState}); decided on the store's state, the command bus answers it as done.
 */
public class Unchanged extends IllegalTransitionException {

    public Unchanged(String message) {
        super(message);
    }
}
