package io.axscheduler.console;

import io.axscheduler.api.security.Caller;
import io.axscheduler.api.security.Role;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;

/**
 * The one place that answers "may the current user do this in this namespace", for the pages (an action's button is
 * shown only when allowed) and for the actions themselves (refused with 403 when not). The user is the signed-in
 * {@link Caller} the security layer put in the request; without one nothing is allowed.
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
        Caller caller = caller();
        if (caller == null) return false;
        String ns = namespace == null || namespace.isBlank()
                ? io.axscheduler.api.security.Grant.DEFAULT_NAMESPACE
                : namespace;
        Role needed = switch (action) {
            case VIEW -> Role.VIEWER;
            case RETRY_JOB, CANCEL_JOB, OPERATE_SCHEDULE -> Role.OPERATOR;
            case EDIT_SCHEDULE -> Role.EDITOR;
        };
        return caller.can(ns, needed);
    }

    /** Template form: {@code @consoleAccess.may('RETRY_JOB', ns)}. */
    public boolean may(String action, String namespace) {
        return may(Action.valueOf(action), namespace);
    }

    /** The actor recorded in the events of the user's actions. */
    public String actor() {
        Caller caller = caller();
        return caller == null ? "anonymous" : caller.actor();
    }

    private static Caller caller() {
        RequestAttributes request = RequestContextHolder.getRequestAttributes();
        if (request == null) return null;
        return (Caller) request.getAttribute(Caller.ATTRIBUTE, RequestAttributes.SCOPE_REQUEST);
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
