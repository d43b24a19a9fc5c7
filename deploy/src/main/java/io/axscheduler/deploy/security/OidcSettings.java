package io.axscheduler.deploy.security;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code ax.oidc.*}: single sign-on, off unless {@code issuerUri} is set.
 *
 * @param issuerUri   the provider (AX_OIDC_ISSUER_URI); its JWTs are taken as bearer tokens on the API
 * @param jwkSetUri   where its signing keys are, when not from its discovery document (AX_OIDC_JWK_SET_URI)
 * @param grantsClaim the claim holding {@code namespace:ROLE} grants (AX_OIDC_GRANTS_CLAIM)
 * @param clientId     the console's client at the provider (AX_OIDC_CLIENT_ID); set, the console's login page offers
 *                     sign-in through the provider (authorization code flow)
 * @param clientSecret that client's secret (AX_OIDC_CLIENT_SECRET)
 * @param scopes       the scopes asked for at sign-in; {@code openid} is always among them
 * @param loginLabel   the sign-in link's text on the login page
 * @param discoveryRetry how long after a failed read of the provider's discovery document the next sign-in tries
 *                     again (the sign-ins between answer 503)
 * @param sessionMax   how long a console sign-in through the provider holds, from its ID token's issue: its grants
 *                     are the token's claims, which cannot be asked again, so a grant taken away at the provider
 *                     holds in a session at most this long
 * @param audiences    whom a bearer JWT must be issued for (AX_OIDC_AUDIENCES): its {@code aud} or {@code azp} names
 *                     one of them; by default the console's client id, and required when that is not set ({@code *}
 *                     takes every token of the issuer)
 */
@ConfigurationProperties("ax.oidc")
public record OidcSettings(
        @DefaultValue("") String issuerUri,
        @DefaultValue("") String jwkSetUri,
        @DefaultValue("ax_grants") String grantsClaim,
        @DefaultValue("") String clientId,
        @DefaultValue("") String clientSecret,
        @DefaultValue("openid") List<String> scopes,
        @DefaultValue("Single sign-on") String loginLabel,
        @DefaultValue("10s") Duration discoveryRetry,
        @DefaultValue("1h") Duration sessionMax,
        @DefaultValue("") List<String> audiences) {

    public OidcSettings {
        issuerUri = issuerUri.trim();
        jwkSetUri = jwkSetUri.trim();
        clientId = clientId.trim();
        if (discoveryRetry.isNegative() || discoveryRetry.compareTo(Duration.ofHours(1)) > 0)
            throw new IllegalArgumentException("ax.oidc.discovery-retry must be between 0 and 1h");
        if (sessionMax.compareTo(Duration.ofSeconds(1)) < 0 || sessionMax.compareTo(Duration.ofDays(1)) > 0)
            throw new IllegalArgumentException("ax.oidc.session-max must be between 1s and 1d");
        if (grantsClaim.isBlank()) throw new IllegalArgumentException("ax.oidc.grants-claim must not be empty");
        if (!clientId.isEmpty() && issuerUri.isEmpty())
            throw new IllegalArgumentException("ax.oidc.client-id needs ax.oidc.issuer-uri (AX_OIDC_ISSUER_URI)");
        if (!clientId.isEmpty() && clientSecret.isBlank())
            throw new IllegalArgumentException(
                    "ax.oidc.client-id needs ax.oidc.client-secret (AX_OIDC_CLIENT_SECRET): the console's client at the"
                            + " provider is a confidential one");
        // "openid profile" as one value (a space-separated list, as OAuth writes scopes) is two scopes
        Set<String> all = new LinkedHashSet<>(List.of("openid"));
        scopes.stream()
                .flatMap(s -> List.of(s.trim().split("\\s+")).stream())
                .filter(s -> !s.isEmpty())
                .forEach(all::add);
        scopes = List.copyOf(all);
        List<String> named = audiences.stream()
                .flatMap(a -> List.of(a.trim().split("[\\s,]+")).stream())
                .filter(a -> !a.isEmpty())
                .toList();
        if (named.isEmpty() && !clientId.isEmpty()) named = List.of(clientId);
        if (named.isEmpty() && !issuerUri.isEmpty())
            throw new IllegalArgumentException(
                    "ax.oidc.audiences (AX_OIDC_AUDIENCES) must name whom the API's tokens are issued for (a token's"
                            + " aud or azp must be one of them), or be * to take every token of the issuer; it defaults"
                            + " to ax.oidc.client-id when that is set");
        audiences = List.copyOf(named);
    }

    /** Whether a token issued for these audiences ({@code aud}) by this authorized party ({@code azp}) is taken. */
    public boolean takes(List<String> aud, String azp) {
        if (audiences.contains("*")) return true;
        if (azp != null && audiences.contains(azp)) return true;
        return aud != null && aud.stream().anyMatch(audiences::contains);
    }

    public boolean enabled() {
        return !issuerUri.isEmpty();
    }

    /** Whether the console signs users in through the provider. */
    public boolean loginEnabled() {
        return enabled() && !clientId.isEmpty();
    }
}
