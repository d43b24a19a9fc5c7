package io.axscheduler.deploy.security;

import io.axscheduler.api.admin.CreateConsoleUser;
import io.axscheduler.api.admin.DeleteConsoleUser;
import io.axscheduler.api.problem.AlreadyExistsException;
import io.axscheduler.api.problem.IllegalTransitionException;
import io.axscheduler.api.problem.NotFoundException;
import io.axscheduler.api.security.Caller;
import io.axscheduler.api.security.Grant;
import io.axscheduler.api.security.Role;
import io.axscheduler.command.OperatorCommands;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Component;

/**
 * The {@code console_users} table: BCrypt hashes only. Failed logins are counted in the row, so a lock-out holds on
 * every node: {@code ax.security.login.max-failures-per-user} failures in a row lock the user for
 * {@code user-lock-ms}. Each creation and deletion appends its event (ConsoleUserCreated, ConsoleUserDeleted, with
 * the actor) in the same transaction as its row.
 */
@Component
public class ConsoleUsers {

    private final NamedParameterJdbcTemplate jdbc;
    private final PasswordEncoder encoder;
    private final Clock clock;
    private final OperatorCommands commands;
    private final SecuritySettings.Login limits;

    public ConsoleUsers(
            NamedParameterJdbcTemplate jdbc,
            PasswordEncoder encoder,
            Clock clock,
            OperatorCommands commands,
            SecuritySettings settings) {
        this.jdbc = jdbc;
        this.encoder = encoder;
        this.clock = clock;
        this.commands = commands;
        this.limits = settings.login();
    }

    public record UserView(String username, List<Map<String, String>> grants, String createdBy, Instant createdAt) {}

    record Stored(String username, String passwordHash, Set<Grant> grants, long lockedUntil, long createdAt) {}

    public void create(String username, String password, Set<Grant> grants, Caller by) {
        String hash = encoder.encode(password);
        commands.inOneTransaction("user " + username, () -> {
            // the row first: of two nodes making one name at once, the second waits on the first's row and is told the
            // name is taken (the user's event stream would clash too, but as a race to retry); the event then goes in
            // the same transaction
            try {
                insert(username, hash, grants, by.actor());
            } catch (DuplicateKeyException e) {
                throw taken(username);
            }
            commands.sendOnce("user", username, new CreateConsoleUser(username, List.copyOf(grants)), by);
            return null;
        });
    }

    /** A user name names one user: another of the name is a conflict with what exists (409), not a bad field. */
    public static AlreadyExistsException taken(String username) {
        return new AlreadyExistsException("user " + username + " exists; delete it or choose another name");
    }

    private void insert(String username, String hash, Set<Grant> grants, String createdBy) {
        jdbc.update(
                "INSERT INTO console_users (username, password_hash, grants, created_by, created_at)"
                        + " VALUES (:name, :hash, :grants, :by, :at)",
                new MapSqlParameterSource()
                        .addValue("name", username)
                        .addValue("hash", hash)
                        .addValue("grants", Grants.format(grants))
                        .addValue("by", createdBy)
                        .addValue("at", clock.millis()));
    }

    public boolean exists(String username) {
        return find(username).isPresent();
    }

    public List<UserView> list() {
        return jdbc.query(
                "SELECT username, grants, created_by, created_at FROM console_users ORDER BY username",
                Map.of(),
                (rs, i) -> new UserView(
                        rs.getString("username"),
                        Grants.views(Grants.parse(rs.getString("grants"))),
                        rs.getString("created_by"),
                        Instant.ofEpochMilli(rs.getLong("created_at"))));
    }

    public void delete(String username, Caller by) {
        commands.inOneTransaction("user " + username, () -> {
            // the users holding ADMIN, locked: two deletes at once cannot each leave the other the last one. Which
            // rows the name matches is the database's to say (its collation ignores case and trailing spaces)
            List<Boolean> adminIsTarget = jdbc
                    .query(
                            "SELECT grants, username = :name AS target FROM console_users ORDER BY username FOR UPDATE",
                            Map.of("name", username),
                            (rs, i) -> Grants.parse(rs.getString(1)).stream().anyMatch(g -> g.role() == Role.ADMIN)
                                    ? rs.getBoolean(2)
                                    : null)
                    .stream()
                    .filter(java.util.Objects::nonNull)
                    .toList();
            if (!adminIsTarget.isEmpty() && !adminIsTarget.contains(false)) {
                throw new IllegalTransitionException(
                        "user " + username + " is the last console user with ADMIN: make another before deleting it");
            }
            // the account's name as it was made (the audit names it so), whatever case the request wrote
            String stored =
                    find(username).map(Stored::username).orElseThrow(() -> new NotFoundException("user", username));
            jdbc.update("DELETE FROM console_users WHERE username = :name", Map.of("name", stored));
            return commands.sendOnce("user", stored, new DeleteConsoleUser(stored), by);
        });
    }

    Optional<Stored> find(String username) {
        return jdbc
                .query(
                        "SELECT username, password_hash, grants, locked_until, created_at FROM console_users"
                                + " WHERE username = :name",
                        Map.of("name", username),
                        (rs, i) -> new Stored(
                                rs.getString("username"),
                                rs.getString("password_hash"),
                                Grants.parse(rs.getString("grants")),
                                rs.getLong("locked_until"),
                                rs.getLong("created_at")))
                .stream()
                .findFirst();
    }

    boolean locked(Stored user) {
        return user.lockedUntil() > clock.millis();
    }

    void loginFailed(String username) {
        jdbc.update(
                "UPDATE console_users SET locked_until = CASE WHEN failed_logins + 1 >= :max THEN :until"
                        + " ELSE locked_until END, failed_logins = CASE WHEN failed_logins + 1 >= :max THEN 0"
                        + " ELSE failed_logins + 1 END WHERE username = :name",
                Map.of(
                        "name",
                        username,
                        "max",
                        limits.maxFailuresPerUser(),
                        "until",
                        clock.millis() + limits.userLockMs()));
    }

    void loginSucceeded(String username) {
        jdbc.update("UPDATE console_users SET failed_logins = 0 WHERE username = :name", Map.of("name", username));
    }
}
