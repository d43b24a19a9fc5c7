package io.axscheduler.api.security;

import io.axscheduler.api.Namespaces;
import java.util.regex.Pattern;

/** A role in a namespace; a global role's namespace is {@link #ALL}. */
public record Grant(String namespace, Role role) implements java.io.Serializable {

    public static final String ALL = "*";
    /** {@link Namespaces#DEFAULT}, for the callers that still read it here. */
    public static final String DEFAULT_NAMESPACE = Namespaces.DEFAULT;
    /** {@link Namespaces#PATTERN}, for the callers that still read it here. */
    public static final Pattern NAMESPACE = Namespaces.PATTERN;

    /** The form kept in the database and in a token claim: {@code namespace:ROLE}. */
    public String text() {
        return namespace + ":" + role;
    }

    /**
     * Parses {@code namespace:ROLE} (or a bare global role, or {@code *:ROLE}); throws IllegalArgumentException on
     * anything else, also on a global role named with one namespace ({@code team-a:ADMIN}): taken as written it would
     * grant every namespace where one was asked for.
     */
    public static Grant parse(String text) {
        int colon = text.lastIndexOf(':');
        String namespace = colon < 0 ? ALL : text.substring(0, colon).trim();
        Role role = Role.valueOf(text.substring(colon + 1).trim().toUpperCase(java.util.Locale.ROOT));
        if (role.global() && !namespace.equals(ALL)) {
            throw new IllegalArgumentException(role + " is a global role: it takes no namespace");
        }
        return of(namespace, role);
    }

    public static Grant of(String namespace, Role role) {
        if (role.global()) return new Grant(ALL, role);
        if (!Namespaces.isValid(namespace)) {
            throw new IllegalArgumentException("namespace must match [a-z0-9-]{1,63}");
        }
        return new Grant(namespace, role);
    }
}
