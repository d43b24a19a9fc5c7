package io.axscheduler.deploy.security;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code ax.oidc.*}: single sign-on, off unless {@code issuerUri} is set.
 *
 * @param issuerUri   the provider (AX_OIDC_ISSUER_URI); its JWTs are taken as bearer tokens on the API
 * @param jwkSetUri   where its signing keys are, when not from its discovery document (AX_OIDC_JWK_SET_URI)
 * @param grantsClaim the claim holding {@code namespace:ROLE} grants (AX_OIDC_GRANTS_CLAIM)
 */
@ConfigurationProperties("ax.oidc")
public record OidcSettings(
        @DefaultValue("") String issuerUri,
        @DefaultValue("") String jwkSetUri,
        @DefaultValue("ax_grants") String grantsClaim) {

    public OidcSettings {
        issuerUri = issuerUri.trim();
        jwkSetUri = jwkSetUri.trim();
        if (grantsClaim.isBlank()) throw new IllegalArgumentException("ax.oidc.grants-claim must not be empty");
    }

    public boolean enabled() {
        return !issuerUri.isEmpty();
    }
}
