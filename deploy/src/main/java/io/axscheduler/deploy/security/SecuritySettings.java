package io.axscheduler.deploy.security;

import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code ax.security.*}.
 *
 * @param cors  which browser origins may call the API; none by default
 * @param login the failed-login limits of the console's form login
 */
@ConfigurationProperties("ax.security")
public record SecuritySettings(
        @DefaultValue Cors cors, @DefaultValue Login login) {

    /** @param allowedOrigins origins whose pages may call {@code /api/**}; empty: no CORS headers at all */
    public record Cors(@DefaultValue List<String> allowedOrigins) {
        public Cors {
            allowedOrigins = allowedOrigins.stream()
                    .map(String::trim)
                    .filter(o -> !o.isEmpty())
                    .toList();
        }
    }

    /**
     * Failed console logins, counted in the database so a limit holds on every node.
     *
     * @param maxFailuresPerUser    this many failures in a row lock the user name for {@code userLockMs}
     * @param userLockMs            how long a user name stays locked
     * @param maxFailuresPerAddress this many failures from one client address within {@code addressWindowMs} lock
     *                              every login from that address for {@code addressLockMs}; 0 turns it off
     * @param addressWindowMs       the window failures from one address are counted in
     * @param addressLockMs         how long an address stays locked
     */
    public record Login(
            @DefaultValue("5") int maxFailuresPerUser,
            @DefaultValue("60000") long userLockMs,
            @DefaultValue("20") int maxFailuresPerAddress,
            @DefaultValue("60000") long addressWindowMs,
            @DefaultValue("300000") long addressLockMs) {
        public Login {
            if (maxFailuresPerUser < 1 || maxFailuresPerUser > 1000)
                throw new IllegalArgumentException("ax.security.login.max-failures-per-user must be 1..1000");
            if (maxFailuresPerAddress < 0 || maxFailuresPerAddress > 100_000)
                throw new IllegalArgumentException("ax.security.login.max-failures-per-address must be 0..100000");
            if (userLockMs < 1_000 || addressLockMs < 1_000 || addressWindowMs < 1_000)
                throw new IllegalArgumentException(
                        "ax.security.login.user-lock-ms, address-window-ms and address-lock-ms must be at least 1000");
        }
    }
}
