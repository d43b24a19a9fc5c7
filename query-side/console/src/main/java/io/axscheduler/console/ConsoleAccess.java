package io.axscheduler.console;

import io.axscheduler.api.Namespaces;
import io.axscheduler.api.security.Access;
import io.axscheduler.api.security.Caller;
import io.axscheduler.api.security.Role;
import java.util.Set;
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
        return caller.can(ns, role(action));
    }

    /** Whether the user may do it in {@code namespace}, or, with none named, in some namespace (a list of several). */
    public boolean mayIn(String action, String namespace) {
        if (namespace != null && !namespace.isBlank()) return may(action, namespace);
        Caller caller = caller();
        return caller != null && caller.canSomewhere(role(Action.valueOf(action)));
    }

    private static Role role(Action action) {
        return switch (action) {
            case VIEW -> Role.VIEWER;
            case RETRY_JOB, CANCEL_JOB, OPERATE_SCHEDULE -> Role.OPERATOR;
            case EDIT_SCHEDULE -> Role.EDITOR;
        };
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

    /** The signed-in user, or null. */
    public Caller current() {
        return caller();
    }

    private static Caller caller() {
        RequestAttributes request = RequestContextHolder.getRequestAttributes();
        if (request == null) return null;
        return (Caller) request.getAttribute(Caller.ATTRIBUTE, RequestAttributes.SCOPE_REQUEST);
    }

    /** 404 unless the user may see {@code namespace}: what one may not see does not exist for one. */
    public void see(String namespace, String kind, String id) {
        Access.see(caller(), namespace, kind, id);
    }

    /**
     * The namespaces the user's lists may show, narrowed to {@code requested} if given: {@code null} means every
     * namespace (an admin), an empty set none.
     */
    public Set<String> listable(String requested) {
        return Access.listable(caller(), requested);
    }

    /** Throws {@link io.axscheduler.api.problem.ForbiddenException} (403) unless the user may. */
    public void require(Action action, String namespace) {
        if (!may(action, namespace)) {
            // in the words of the API's refusals: the grants that would do, not the console's own name of the action
            Access.act(
                    caller(), namespace == null || namespace.isBlank() ? Namespaces.DEFAULT : namespace, role(action));
        }
    }
}
