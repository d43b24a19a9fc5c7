package io.axscheduler.console;

import org.springframework.stereotype.Component;

/**
 * The one place that answers "may the current user do this in this namespace", for the pages (an action's button is
 * shown only when allowed) and for the actions themselves (refused with 403 when not). Until identities are in,
 * everyone may do everything and acts as {@code console}; wiring them in changes only this class.
 */
@Component("consoleAccess")
public class ConsoleAccess {

    /** What a user can be allowed to do. */
    public enum Action {
        VIEW,
        RETRY_JOB,
        CANCEL_JOB,
        EDIT_SCHEDULE,
        OPERATE_SCHEDULE
    }

    public boolean may(Action action, String namespace) {
        return true;
    }

    /** Template form: {@code @consoleAccess.may('RETRY_JOB', ns)}. */
    public boolean may(String action, String namespace) {
        return may(Action.valueOf(action), namespace);
    }

    /** The actor recorded in the events of the user's actions. */
    public String actor() {
        return "console";
    }

    /** Throws {@link Forbidden} (403) unless the user may. */
    public void require(Action action, String namespace) {
        if (!may(action, namespace)) throw new Forbidden(action, namespace);
    }

    @org.springframework.web.bind.annotation.ResponseStatus(org.springframework.http.HttpStatus.FORBIDDEN)
    public static final class Forbidden extends RuntimeException {
        Forbidden(Action action, String namespace) {
            super("not allowed: " + action + " in namespace " + namespace);
        }
    }
}
