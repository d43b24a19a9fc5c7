package io.axscheduler.api.security;

import io.axscheduler.api.Namespaces;
import io.axscheduler.api.problem.ForbiddenException;
import io.axscheduler.api.problem.InvalidRequestException;
import io.axscheduler.api.problem.NotFoundException;
import java.util.Set;

/**
 * The namespace checks of the controllers: what a caller may not see does not exist for it (404), and what it may
 * only see it may not change (403). A missing caller (no security layer in front) may do nothing.
 */
public final class Access {

    private Access() {}

    /** 404 unless {@code caller} may see {@code namespace}, then 403 unless it may act there as {@code role}. */
    public static void check(Caller caller, String namespace, Role role, String kind, String id) {
        see(caller, namespace, kind, id);
        if (!caller.can(namespace, role)) throw notAllowed(namespace, role);
    }

    private static ForbiddenException notAllowed(String namespace, Role role) {
        return new ForbiddenException("not allowed in namespace " + namespace + ": this needs a grant of "
                + role.grantsCovering() + " there");
    }

    /** 404 unless {@code caller} may see {@code namespace}. */
    public static void see(Caller caller, String namespace, String kind, String id) {
        if (caller == null || !caller.can(namespace, Role.VIEWER)) throw new NotFoundException(kind, id);
    }

    /** 403 unless {@code caller} may act as {@code role} in {@code namespace}: for what does not exist yet. */
    public static void act(Caller caller, String namespace, Role role) {
        if (caller == null || !caller.can(namespace, role)) throw notAllowed(namespace, role);
    }

    /**
     * {@link #act} for a request {@code body} that may name its namespace: one that named none and went to the
     * caller's home namespace is told so, with the namespaces it may act in (a key of several teams lands in
     * {@code default}, which it may not be granted).
     */
    public static void act(Caller caller, String namespace, Role role, com.fasterxml.jackson.databind.JsonNode body) {
        if (caller != null && !caller.can(namespace, role) && body != null && !body.has("namespace")) {
            Set<String> mine = caller.namespaces(role);
            throw new ForbiddenException(notAllowed(namespace, role).getMessage()
                    + "; the request names no namespace, so it went to " + namespace
                    + (mine == null || mine.isEmpty()
                            ? ""
                            : ": name one in \"namespace\" (this caller's as " + role + ": "
                                    + String.join(", ", new java.util.TreeSet<>(mine)) + ")"));
        }
        act(caller, namespace, role);
    }

    /**
     * The namespaces a list may show: those the caller may see, narrowed to {@code requested} if given; {@code null}
     * means every namespace (an admin asking for all).
     */
    public static Set<String> listable(Caller caller, String requested) {
        if (requested != null && !requested.isBlank() && !Namespaces.isValid(requested)) {
            throw InvalidRequestException.of("namespace", "must be 1-63 lowercase letters, digits or '-'");
        }
        if (caller == null) return Set.of();
        Set<String> visible = caller.namespaces(Role.VIEWER);
        if (requested == null || requested.isBlank()) return visible;
        if (visible == null || visible.contains(requested)) return Set.of(requested);
        return Set.of();
    }

    /**
     * Whether {@code caller} sees an alert rule narrowed to {@code ruleNamespace} ({@code null}: the whole cluster) and
     * the alerts it raises: an admin every rule; anyone else only those narrowed to a namespace it may see, since a
     * rule's alerts name the jobs, schedules and errors it watches, and a rule of the whole cluster watches every one.
     */
    public static boolean seesAlertRule(Caller caller, String ruleNamespace) {
        if (caller == null) return false;
        Set<String> namespaces = caller.namespaces(Role.VIEWER);
        return namespaces == null || (ruleNamespace != null && namespaces.contains(ruleNamespace));
    }
}
