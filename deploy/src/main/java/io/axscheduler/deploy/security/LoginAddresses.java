package io.axscheduler.deploy.security;

import java.time.Clock;
import java.util.Map;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Failed console logins per client address ({@code login_address_failures}), beside the per-user count of
 * {@link ConsoleUsers}: that one stops guessing one user's password, this one stops one address trying a password on
 * many user names. {@code max-failures-per-address} failures within {@code address-window-ms} lock every login from
 * the address for {@code address-lock-ms}. The address is the request's remote address: behind a proxy, set
 * {@code server.forward-headers-strategy} so it is the client's.
 */
@Component
class LoginAddresses {

    static final int MAX_ADDRESS_LENGTH = 64;
    /** Expired rows deleted per failure: enough to keep up with any rate of new addresses, bounded per request. */
    static final int PURGE_BATCH = 100;

    private final NamedParameterJdbcTemplate jdbc;
    private final Clock clock;
    private final SecuritySettings.Login limits;

    LoginAddresses(NamedParameterJdbcTemplate jdbc, Clock clock, SecuritySettings settings) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.limits = settings.login();
    }

    boolean locked(String address) {
        if (limits.maxFailuresPerAddress() == 0) return false;
        Long until = jdbc
                .queryForList(
                        "SELECT locked_until FROM login_address_failures WHERE address = :a",
                        Map.of("a", key(address)),
                        Long.class)
                .stream()
                .findFirst()
                .orElse(0L);
        return until > clock.millis();
    }

    void failed(String address) {
        if (limits.maxFailuresPerAddress() == 0) return;
        long now = clock.millis();
        int max = limits.maxFailuresPerAddress();
        MapSqlParameterSource p = new MapSqlParameterSource("a", key(address))
                .addValue("now", now)
                .addValue("max", max)
                .addValue("windowUntil", now + limits.addressWindowMs())
                .addValue("lockedUntil", now + limits.addressLockMs())
                .addValue("firstLock", max <= 1 ? now + limits.addressLockMs() : 0L);
        // MySQL applies the assignments in order, each seeing the ones before: locked_until is decided on the old
        // count and window, then the count, then the window
        jdbc.update(
                "INSERT INTO login_address_failures (address, failures, window_until, locked_until)"
                        + " VALUES (:a, 1, :windowUntil, :firstLock) ON DUPLICATE KEY UPDATE"
                        + " locked_until = IF(IF(window_until > :now, failures + 1, 1) >= :max, :lockedUntil,"
                        + " locked_until),"
                        + " failures = IF(window_until > :now, failures + 1, 1),"
                        + " window_until = IF(window_until > :now, window_until, :windowUntil)",
                p);
        jdbc.update(
                "DELETE FROM login_address_failures WHERE window_until < :now AND locked_until < :now LIMIT "
                        + PURGE_BATCH,
                Map.of("now", now));
    }

    private static String key(String address) {
        if (address == null || address.isBlank()) return "unknown";
        return address.length() > MAX_ADDRESS_LENGTH ? address.substring(0, MAX_ADDRESS_LENGTH) : address;
    }
}
