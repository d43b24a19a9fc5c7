package io.axscheduler.api.problem;

/**
 * A command refused on the state of its aggregate this node held in memory, which another node may have moved on
 * since: the sender decides it again on the store's state (the refusal dropped the cached entry), and answers 409 only
 * when that refuses too. Its message is the refusal's.
 */
public class RefusedOnCachedState extends IllegalTransitionException {

    public RefusedOnCachedState(IllegalTransitionException refusal) {
        super(refusal.getMessage());
        initCause(refusal);
    }
}
