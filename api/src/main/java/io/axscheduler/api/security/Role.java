package io.axscheduler.api.security;

/**
 * What a grant lets its holder do in a namespace. {@code VIEWER} reads; {@code OPERATOR} also submits, cancels,
 * retries, pauses, resumes and triggers; {@code EDITOR} also creates, edits and deletes schedules; {@code WORKER}
 * registers, heartbeats and calls back for the namespace's worker apps. {@code ADMIN} (keys, users, rebuilds, every
 * namespace) and {@code ON_BEHALF_OF} (may name another actor in {@code X-On-Behalf-Of}) are global.
 */
public enum Role {
    VIEWER,
    OPERATOR,
    EDITOR,
    WORKER,
    ADMIN,
    ON_BEHALF_OF;

    /** The grants that cover this role, as a refusal names them: "EDITOR or ADMIN". */
    public String grantsCovering() {
        java.util.List<String> names = java.util.Arrays.stream(values())
                .filter(r -> r.covers(this))
                .map(Role::name)
                .toList();
        return names.size() == 1
                ? names.get(0)
                : String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
    }

    /** Whether a grant of this role covers {@code wanted} in the same namespace. */
    public boolean covers(Role wanted) {
        if (this == ADMIN) return true;
        return switch (wanted) {
            case VIEWER -> this == VIEWER || this == OPERATOR || this == EDITOR;
            case OPERATOR -> this == OPERATOR || this == EDITOR;
            case EDITOR -> this == EDITOR;
            case WORKER -> this == WORKER;
            case ADMIN -> false;
            case ON_BEHALF_OF -> this == ON_BEHALF_OF;
        };
    }

    public boolean global() {
        return this == ADMIN || this == ON_BEHALF_OF;
    }
}
