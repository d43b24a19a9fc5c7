package io.axscheduler.deploy.security;

import com.fasterxml.jackson.databind.JsonNode;
import io.axscheduler.api.Namespaces;
import io.axscheduler.api.problem.FieldError;
import io.axscheduler.api.security.Grant;
import io.axscheduler.api.security.Role;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** Grants as the database keeps them ({@code ns:ROLE,ns:ROLE}) and as request bodies give them. */
final class Grants {

    static final int MAX = 50;

    private Grants() {}

    static String format(Set<Grant> grants) {
        return grants.stream().map(Grant::text).sorted().collect(Collectors.joining(","));
    }

    /**
     * Grants as the API shows them: {@code {"namespace", "role"}} each, in that field order, sorted as they are stored,
     * so a key's or user's create answer and its listing read alike.
     */
    static List<Map<String, String>> views(Set<Grant> grants) {
        return grants.stream()
                .sorted(java.util.Comparator.comparing(Grant::text))
                .map(g -> {
                    Map<String, String> view = new java.util.LinkedHashMap<>();
                    view.put("namespace", g.namespace());
                    view.put("role", g.role().name());
                    return view;
                })
                .toList();
    }

    static Set<Grant> parse(String text) {
        if (text == null || text.isBlank()) return Set.of();
        Set<Grant> grants = new LinkedHashSet<>();
        for (String part : text.split(",")) grants.add(Grant.parse(part));
        return grants;
    }

    /** {@code [{"namespace":"team-a","role":"OPERATOR"}, {"role":"ADMIN"}]}, each error named by its index. */
    static Set<Grant> fromJson(JsonNode array, List<FieldError> errors) {
        Set<Grant> grants = new LinkedHashSet<>();
        if (array == null || !array.isArray() || array.isEmpty() || array.size() > MAX) {
            errors.add(new FieldError("grants", "must be an array of 1 to " + MAX + " {namespace, role}"));
            return grants;
        }
        for (int i = 0; i < array.size(); i++) {
            JsonNode item = array.get(i);
            if (!item.isObject()) {
                errors.add(new FieldError("grants[" + i + "]", "must be an object {namespace, role}"));
                continue;
            }
            for (var names = item.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                if (!name.equals("namespace") && !name.equals("role"))
                    errors.add(new FieldError("grants[" + i + "]." + name, "is not a known field"));
            }
            String roleText = item.path("role").asText("").toUpperCase(Locale.ROOT);
            Role role;
            try {
                role = Role.valueOf(roleText);
            } catch (IllegalArgumentException e) {
                errors.add(
                        new FieldError("grants[" + i + "].role", "must be one of " + Arrays.toString(Role.values())));
                // the namespace too, as far as it can be judged without a role: a name, or "*" as for a global one
                JsonNode named = item.path("namespace");
                if (!named.isMissingNode()
                        && !named.isNull()
                        && !"*".equals(named.asText())
                        && !(named.isTextual() && Namespaces.isValid(named.asText())))
                    errors.add(new FieldError("grants[" + i + "].namespace", "must match [a-z0-9-]{1,63}"));
                continue;
            }
            String namespace =
                    item.path("namespace").isTextual() ? item.path("namespace").asText() : null;
            if (role.global() && item.hasNonNull("namespace") && !"*".equals(namespace)) {
                // a global role is every namespace's: asked for one, it would be granted far more than was asked
                errors.add(new FieldError(
                        "grants[" + i + "].namespace",
                        "must be left out: " + role + " is a global role, of every namespace"));
                continue;
            }
            if (!role.global() && !Namespaces.isValid(namespace)) {
                errors.add(new FieldError("grants[" + i + "].namespace", "must match [a-z0-9-]{1,63}"));
                continue;
            }
            if (!role.global() && Namespaces.isReserved(namespace)) {
                errors.add(new FieldError(
                        "grants[" + i + "].namespace", Namespaces.RESERVED_MESSAGE + ", which ADMIN alone sees"));
                continue;
            }
            grants.add(Grant.of(namespace, role));
        }
        return grants;
    }
}
