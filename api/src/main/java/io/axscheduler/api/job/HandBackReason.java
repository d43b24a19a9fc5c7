package io.axscheduler.api.job;

/** Why a node handed a claimed job back before starting it. */
public enum HandBackReason {
    /**
     * No worker of the job's namespace (and app, when it names one) that registered its type was available: none
     * registered, or each was cooling down or had missed heartbeats when the claim came.
     */
    NO_WORKER("no worker of its type was available: none registered, or each cooling down or missing heartbeats"),
    /** Workers of the type were there, but none took the push: each was full, refused it or could not be reached. */
    NO_WORKER_TOOK_IT("no worker took it: each was full, refused it or could not be reached"),
    /** The node's push threads were all busy (or the node was stopping) and could not take the job. */
    NODE_BUSY("the node's push threads were busy or it was stopping");

    private final String description;

    HandBackReason(String description) {
        this.description = description;
    }

    /** The reason in a sentence, for the console and explain. */
    public String description() {
        return description;
    }
}
