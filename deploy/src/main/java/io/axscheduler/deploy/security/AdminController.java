package io.axscheduler.deploy.security;

import com.fasterxml.jackson.databind.JsonNode;
import io.axscheduler.api.problem.FieldError;
import io.axscheduler.api.problem.InvalidRequestException;
import io.axscheduler.api.security.Caller;
import io.axscheduler.api.security.Grant;
import io.axscheduler.scheduler.remote.RemoveWorkers;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** API keys and console users, for a global ADMIN (the security chain lets no one else in). */
@RestController
class AdminController {

    private static final Logger log = LoggerFactory.getLogger(AdminController.class);

    static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");
    static final int MAX_PASSWORD = 200;

    private final ApiKeys keys;
    private final ConsoleUsers users;
    private final Clock clock;
    private final RemoveWorkers removeWorkers;

    AdminController(ApiKeys keys, ConsoleUsers users, Clock clock, RemoveWorkers removeWorkers) {
        this.keys = keys;
        this.removeWorkers = removeWorkers;
        this.users = users;
        this.clock = clock;
    }

    @PostMapping("/api/v1/admin/api-keys")
    ResponseEntity<Map<String, Object>> createKey(
            @RequestBody JsonNode body, @RequestAttribute(Caller.ATTRIBUTE) Caller caller) {
        List<FieldError> errors = new ArrayList<>();
        known(body, errors, "name", "grants", "expiresAt");
        String name = body.path("name").asText("");
        if (!NAME.matcher(name).matches()) {
            errors.add(new FieldError("name", "is required: 1-100 letters, digits, '.', '_' or '-'"));
        }
        Set<Grant> grants = Grants.fromJson(body.get("grants"), errors);
        Instant expiresAt = null;
        JsonNode expires = body.get("expiresAt");
        if (expires != null && !expires.isNull()) {
            try {
                expiresAt = Instant.parse(expires.asText());
                if (!expiresAt.isAfter(clock.instant()))
                    errors.add(new FieldError("expiresAt", "must be in the future"));
            } catch (DateTimeParseException e) {
                errors.add(new FieldError("expiresAt", "must be an ISO-8601 instant"));
            }
        }
        if (!errors.isEmpty()) throw new InvalidRequestException(errors);
        if (keys.nameTaken(name)) throw ApiKeys.nameInUse(name);
        String key = ApiKeys.newKey();
        String id = keys.create(name, grants, expiresAt, caller, key);
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("id", id);
        answer.put("key", key);
        answer.put("name", name);
        answer.put("grants", Grants.views(grants));
        answer.put("createdBy", caller.actor());
        answer.put("expiresAt", expiresAt);
        return ResponseEntity.status(HttpStatus.CREATED).body(answer);
    }

    @GetMapping("/api/v1/admin/api-keys")
    Map<String, List<ApiKeys.KeyView>> listKeys() {
        return Map.of("keys", keys.list());
    }

    @DeleteMapping("/api/v1/admin/api-keys/{id}")
    ResponseEntity<Void> revokeKey(@PathVariable String id, @RequestAttribute(Caller.ATTRIBUTE) Caller caller) {
        String name = keys.revoke(id, caller);
        // the workers it registered can no longer heartbeat or report: taken out now, their runs given up by name
        if (name != null) {
            try {
                removeWorkers.keyRevoked("key:" + name, caller);
            } catch (RuntimeException e) {
                // the key is revoked either way: its workers, refused from now on, are removed as silent instead
                log.warn("key {} revoked; removing the workers it registered failed: {}", name, e.toString());
            }
        }
        return ResponseEntity.noContent().build();
    }

    @PostMapping("/api/v1/admin/users")
    ResponseEntity<Map<String, Object>> createUser(
            @RequestBody JsonNode body, @RequestAttribute(Caller.ATTRIBUTE) Caller caller) {
        List<FieldError> errors = new ArrayList<>();
        known(body, errors, "username", "password", "grants");
        String username = body.path("username").asText("");
        if (!NAME.matcher(username).matches()) {
            errors.add(new FieldError("username", "is required: 1-100 letters, digits, '.', '_' or '-'"));
        }
        String password = body.path("password").asText("");
        if (password.length() < Bootstrap.MIN_PASSWORD_LENGTH || password.length() > MAX_PASSWORD) {
            errors.add(new FieldError(
                    "password", "must be " + Bootstrap.MIN_PASSWORD_LENGTH + " to " + MAX_PASSWORD + " characters"));
        }
        Set<Grant> grants = Grants.fromJson(body.get("grants"), errors);
        if (!errors.isEmpty()) throw new InvalidRequestException(errors);
        if (users.exists(username)) throw ConsoleUsers.taken(username);
        users.create(username, password, grants, caller);
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("username", username);
        answer.put("grants", Grants.views(grants));
        answer.put("createdBy", caller.actor());
        return ResponseEntity.status(HttpStatus.CREATED).body(answer);
    }

    @GetMapping("/api/v1/admin/users")
    Map<String, List<ConsoleUsers.UserView>> listUsers() {
        return Map.of("users", users.list());
    }

    @DeleteMapping("/api/v1/admin/users/{username}")
    ResponseEntity<Void> deleteUser(@PathVariable String username, @RequestAttribute(Caller.ATTRIBUTE) Caller caller) {
        users.delete(username, caller);
        return ResponseEntity.noContent().build();
    }

    private static void known(JsonNode body, List<FieldError> errors, String... fields) {
        if (body == null || !body.isObject()) {
            errors.add(new FieldError("body", "must be a JSON object"));
            return;
        }
        Set<String> allowed = Set.of(fields);
        body.fieldNames().forEachRemaining(f -> {
            if (!allowed.contains(f)) errors.add(new FieldError(f, "is not a known field"));
        });
    }
}
