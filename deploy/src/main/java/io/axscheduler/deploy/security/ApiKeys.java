package io.axscheduler.deploy.security;

import io.axscheduler.api.admin.CreateApiKey;
import io.axscheduler.api.admin.RevokeApiKey;
import io.axscheduler.api.problem.AlreadyExistsException;
import io.axscheduler.api.problem.NotFoundException;
import io.axscheduler.api.security.Caller;
import io.axscheduler.api.security.Grant;
import io.axscheduler.command.OperatorCommands;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The {@code api_keys} table. A key is {@code ax_} and 256 random bits, shown once; only its SHA-256 is stored. A
 * presented key is looked up in the database at most every {@link #CACHE_MS} per key and node, so a revocation or
 * expiry is seen by every node within that time without a message between them. Each creation and revocation
 * appends its event (ApiKeyCreated, ApiKeyRevoked, with the actor) in the same transaction as its row.
 */
@Component
public class ApiKeys {

    static final long CACHE_MS = 500;
    static final int MAX_CACHED = 10_000;
    /** last_used_at is written at most this often per key, not on every request. */
    static final long LAST_USED_PRECISION_MS = 60_000;

    private static final SecureRandom random = new SecureRandom();

    private final NamedParameterJdbcTemplate jdbc;
    private final Clock clock;
    private final OperatorCommands commands;
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();

    public ApiKeys(NamedParameterJdbcTemplate jdbc, Clock clock, OperatorCommands commands) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.commands = commands;
    }

    /** A key as the admin API shows it: never the key itself. */
    public record KeyView(
            String id,
            String name,
            List<Map<String, String>> grants,
            String createdBy,
            Instant createdAt,
            Instant lastUsedAt,
            Instant expiresAt,
            Instant revokedAt) {}

    /** A valid key: its name and grants. */
    public record KeyHolder(String id, String name, Set<Grant> grants) {}

    private record Row(String id, String name, Set<Grant> grants, Long expiresAt, Long revokedAt, Long lastUsedAt) {}

    private record Cached(Optional<Row> row, long loadedAtMs) {}

    public static String newKey() {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return "ax_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Stores a key, records who made it, and returns its id. */
    public String create(String name, Set<Grant> grants, Instant expiresAt, Caller by, String key) {
        String id = UUID.randomUUID().toString();
        return commands.inOneTransaction("api key " + name, () -> {
            // the event first: a row that then cannot be written (a name taken meanwhile) takes it back with it
            commands.sendOnce("api key", id, new CreateApiKey(id, name, List.copyOf(grants), expiresAt), by);
            try {
                insert(id, name, grants, expiresAt, by.actor(), key);
            } catch (DuplicateKeyException e) {
                throw nameInUse(name);
            }
            return id;
        });
    }

    /** A key's name names one key: another of the name is a conflict with what exists (409), not a bad field. */
    public static AlreadyExistsException nameInUse(String name) {
        return new AlreadyExistsException(
                "an api key named " + name + " exists (a revoked key keeps its name); choose another name");
    }

    private void insert(String id, String name, Set<Grant> grants, Instant expiresAt, String createdBy, String key) {
        jdbc.update(
                "INSERT INTO api_keys (id, name, key_hash, grants, created_by, created_at, expires_at)"
                        + " VALUES (:id, :name, :hash, :grants, :by, :at, :expires)",
                new MapSqlParameterSource()
                        .addValue("id", id)
                        .addValue("name", name)
                        .addValue("hash", hash(key))
                        .addValue("grants", Grants.format(grants))
                        .addValue("by", createdBy)
                        .addValue("at", clock.millis())
                        .addValue("expires", expiresAt == null ? null : expiresAt.toEpochMilli()));
    }

    public boolean nameTaken(String name) {
        return !jdbc.queryForList("SELECT id FROM api_keys WHERE name = :name", Map.of("name", name), String.class)
                .isEmpty();
    }

    public boolean hashExists(String key) {
        return !jdbc.queryForList(
                        "SELECT id FROM api_keys WHERE key_hash = :hash", Map.of("hash", hash(key)), String.class)
                .isEmpty();
    }

    public boolean anyAdmin() {
        return jdbc.queryForObject(
                        "SELECT COUNT(*) FROM api_keys WHERE revoked_at IS NULL AND grants LIKE '%:ADMIN%'",
                        Map.of(), Integer.class)
                > 0;
    }

    public List<KeyView> list() {
        return jdbc.query(
                "SELECT id, name, grants, created_by, created_at, last_used_at, expires_at, revoked_at"
                        + " FROM api_keys ORDER BY created_at, id",
                Map.of(),
                (rs, i) -> new KeyView(
                        rs.getString("id"),
                        rs.getString("name"),
                        Grants.views(Grants.parse(rs.getString("grants"))),
                        rs.getString("created_by"),
                        Instant.ofEpochMilli(rs.getLong("created_at")),
                        instant(rs.getObject("last_used_at")),
                        instant(rs.getObject("expires_at")),
                        instant(rs.getObject("revoked_at"))));
    }

    /**
     * Revokes a key and records who did; a key revoked already stays as it was (the first revocation is the one
     * recorded), an unknown id is 404. Returns the key's name, or null when it was revoked already.
     */
    public String revoke(String id, Caller by) {
        String revoked = commands.inOneTransaction("api key " + id, () -> {
            int updated = jdbc.update(
                    "UPDATE api_keys SET revoked_at = :at, revoked_by = :by WHERE id = :id AND revoked_at IS NULL",
                    Map.of("id", id, "at", clock.millis(), "by", by.actor()));
            if (updated == 0) {
                Integer known = jdbc.queryForObject(
                        "SELECT COUNT(*) FROM api_keys WHERE id = :id", Map.of("id", id), Integer.class);
                if (known == null || known == 0) throw new NotFoundException("api key", id);
                return null;
            }
            String name =
                    jdbc.queryForObject("SELECT name FROM api_keys WHERE id = :id", Map.of("id", id), String.class);
            commands.sendOnce("api key", id, new RevokeApiKey(id, name), by);
            return name;
        });
        cache.clear();
        return revoked;
    }

    /** The holder of {@code key} if it is known, not revoked and not expired. */
    public Optional<KeyHolder> authenticate(String key) {
        if (key == null || key.length() < 20 || key.length() > 200) return Optional.empty();
        String hash = hash(key);
        long now = clock.millis();
        Cached cached = cache.get(hash);
        if (cached == null || now - cached.loadedAtMs() >= CACHE_MS || now < cached.loadedAtMs()) {
            if (cache.size() >= MAX_CACHED) cache.clear();
            cached = new Cached(load(hash), now);
            cache.put(hash, cached);
            cached.row().ifPresent(row -> touch(row, now));
        }
        return cached.row()
                .filter(row -> row.revokedAt() == null)
                .filter(row -> row.expiresAt() == null || row.expiresAt() > now)
                .map(row -> new KeyHolder(row.id(), row.name(), row.grants()));
    }

    private Optional<Row> load(String hash) {
        return jdbc
                .query(
                        "SELECT id, name, grants, expires_at, revoked_at, last_used_at FROM api_keys"
                                + " WHERE key_hash = :hash",
                        Map.of("hash", hash),
                        (rs, i) -> new Row(
                                rs.getString("id"),
                                rs.getString("name"),
                                Grants.parse(rs.getString("grants")),
                                (Long) rs.getObject("expires_at", Long.class),
                                (Long) rs.getObject("revoked_at", Long.class),
                                (Long) rs.getObject("last_used_at", Long.class)))
                .stream()
                .findFirst();
    }

    private void touch(Row row, long now) {
        if (row.lastUsedAt() != null && now - row.lastUsedAt() < LAST_USED_PRECISION_MS) return;
        jdbc.update("UPDATE api_keys SET last_used_at = :now WHERE id = :id", Map.of("now", now, "id", row.id()));
    }

    static String hash(String key) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Instant instant(Object epochMs) {
        return epochMs == null ? null : Instant.ofEpochMilli(((Number) epochMs).longValue());
    }
}
