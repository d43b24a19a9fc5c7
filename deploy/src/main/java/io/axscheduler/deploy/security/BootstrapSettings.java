package io.axscheduler.deploy.security;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code ax.bootstrap.*}: the first admin's secrets for scripts and CI (AX_BOOTSTRAP_ADMIN_KEY,
 * AX_BOOTSTRAP_ADMIN_PASSWORD); empty: the first start makes random ones.
 */
@ConfigurationProperties("ax.bootstrap")
public record BootstrapSettings(
        @DefaultValue("") String adminKey, @DefaultValue("") String adminPassword) {

    static final int MIN_KEY_LENGTH = 32;
    static final int MIN_PASSWORD_LENGTH = 12;

    public BootstrapSettings {
        adminKey = adminKey.trim();
        if (!adminKey.isEmpty() && adminKey.length() < MIN_KEY_LENGTH) {
            throw new IllegalArgumentException("AX_BOOTSTRAP_ADMIN_KEY must be at least " + MIN_KEY_LENGTH
                    + " characters of random (128 bits or more)");
        }
        if (!adminPassword.isEmpty() && adminPassword.length() < MIN_PASSWORD_LENGTH) {
            throw new IllegalArgumentException(
                    "AX_BOOTSTRAP_ADMIN_PASSWORD must be at least " + MIN_PASSWORD_LENGTH + " characters");
        }
    }
}
