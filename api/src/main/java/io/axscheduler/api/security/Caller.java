package io.axscheduler.api.security;

import io.axscheduler.api.Metadata;
import io.axscheduler.api.Namespaces;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Who is calling, as authentication established it: the actor recorded in events ({@code key:<name>},
 * {@code user:<name>} or an OIDC subject), whom it acts for if it may say so, and its grants. The security layer puts
 * it in the request attribute {@link #ATTRIBUTE}; controllers read it from there and never from a header.
 */
public record Caller(String actor, String onBehalfOf, Set<Grant> grants) implements java.io.Serializable {

    public static final String ATTRIBUTE = "io.axscheduler.caller";

    /**
     * Request attribute: a {@link java.util.function.BooleanSupplier} telling, when asked later, whether the request's
     * credentials still hold with the grants they gave (an API key not revoked or expired, a console user not deleted
     * and with the same grants). A response that outlives its request's check (a stream) asks it now and then.
     */
    public static final String STILL_HOLDS = "io.axscheduler.caller.still-holds";

    /** The node itself, for work no client asked for. */
    public static final Caller SCHEDULER = new Caller("scheduler", null, Set.of(new Grant(Grant.ALL, Role.ADMIN)));

    public Caller {
        // the scheduler's own namespace is a global role's only: a grant naming it (a token's group) grants nothing
        grants = grants.stream()
                .filter(g -> g.role().global() || !Namespaces.isReserved(g.namespace()))
                .collect(Collectors.toUnmodifiableSet());
    }

    public boolean admin() {
        return grants.stream().anyMatch(g -> g.role() == Role.ADMIN);
    }

    /** Whether the caller may do what {@code role} allows in {@code namespace}. */
    public boolean can(String namespace, Role role) {
        return admin()
                || grants.stream()
                        .anyMatch(
                                g -> g.namespace().equals(namespace) && g.role().covers(role));
    }

    /**
     * The namespace of a job or schedule whose request names none: the caller's one namespace when all its grants of a
     * namespace are in that one (a team's key, also with {@code ON_BEHALF_OF}), else {@link Namespaces#DEFAULT} (an
     * admin, a caller of several namespaces).
     */
    public String homeNamespace() {
        if (admin()) return Namespaces.DEFAULT;
        Set<String> named = grants.stream()
                .filter(g -> !g.role().global())
                .map(Grant::namespace)
                .collect(Collectors.toSet());
        return named.size() == 1 ? named.iterator().next() : Namespaces.DEFAULT;
    }

    /** {@link #homeNamespace()} of {@code caller}; {@link Namespaces#DEFAULT} without one. */
    public static String homeNamespace(Caller caller) {
        return caller == null ? Namespaces.DEFAULT : caller.homeNamespace();
    }

    /** Whether some namespace allows {@code role}: the coarse check before the namespace is known. */
    public boolean canSomewhere(Role role) {
        return admin() || grants.stream().anyMatch(g -> g.role().covers(role));
    }

    /** The namespaces the caller may see with {@code role}; {@code null} means all (an admin). */
    public Set<String> namespaces(Role role) {
        if (admin()) return null;
        return grants.stream()
                .filter(g -> g.role().covers(role))
                .map(Grant::namespace)
                .collect(Collectors.toUnmodifiableSet());
    }

    /**
     * The metadata of a command {@code caller} sends: its actor ({@code anonymous} without a caller) and whom it acts
     * for, which every event the command causes carries.
     */
    public static Map<String, Object> metadataOf(Caller caller) {
        Map<String, Object> metadata = new HashMap<>();
        metadata.put(Metadata.ACTOR, caller == null ? Metadata.ANONYMOUS : caller.actor());
        if (caller != null && caller.onBehalfOf() != null) metadata.put(Metadata.ON_BEHALF_OF, caller.onBehalfOf());
        return metadata;
    }
}
