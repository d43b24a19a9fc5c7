package io.axscheduler.deploy.security;

import io.axscheduler.api.security.Caller;
import io.axscheduler.api.security.Grant;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.client.authentication.OAuth2AuthenticationToken;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.ClientRegistrations;
import org.springframework.security.oauth2.client.registration.InMemoryClientRegistrationRepository;
import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.core.oidc.user.OidcUser;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtValidators;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;
import org.springframework.security.oauth2.server.resource.web.BearerTokenResolver;
import org.springframework.security.oauth2.server.resource.web.DefaultBearerTokenResolver;
import org.springframework.stereotype.Component;

/**
 * SSO through an OIDC provider, off unless {@code ax.oidc.issuer-uri} (AX_OIDC_ISSUER_URI) is set: the API then also
 * takes the provider's JWTs as bearer tokens, and with {@code ax.oidc.client-id} the console signs users in through
 * the provider (authorization code flow; the provider's discovery document is read at start-up). The grants are the
 * claim {@code ax.oidc.grants-claim} of the access token or ID token (a list, or one space- or comma-separated string,
 * of {@code namespace:ROLE}); the actor is {@code oidc:<subject>}. Also turns any authentication this node made into
 * the {@link Caller} the controllers see.
 */
@Component
public class Oidc {

    /** The console's client registration, in the paths {@code /oauth2/authorization/oidc} and its callback. */
    static final String REGISTRATION = "oidc";

    private static final Logger log = LoggerFactory.getLogger(Oidc.class);

    private final OidcSettings settings;

    public Oidc(OidcSettings settings) {
        this.settings = settings;
    }

    boolean enabled() {
        return settings.enabled();
    }

    /** The console's sign-in through the provider, on the default login page beside the password form. */
    void configureLogin(HttpSecurity http) throws Exception {
        if (!settings.loginEnabled()) return;
        ClientRegistration registration = ClientRegistrations.fromIssuerLocation(settings.issuerUri())
                .registrationId(REGISTRATION)
                .clientId(settings.clientId())
                .clientSecret(settings.clientSecret())
                .scope(settings.scopes())
                .clientName(settings.loginLabel())
                .build();
        http.oauth2Login(o -> o.clientRegistrationRepository(new InMemoryClientRegistrationRepository(registration))
                .failureUrl("/login?error"));
    }

    void configure(HttpSecurity http, Problems problems) throws Exception {
        if (!enabled()) return;
        DefaultBearerTokenResolver bearer = new DefaultBearerTokenResolver();
        // API keys travel as bearer tokens too: only a JWT-shaped token is the resource server's to judge
        BearerTokenResolver jwtsOnly = request -> {
            String token = bearer.resolve(request);
            return token != null && token.chars().filter(c -> c == '.').count() == 2 ? token : null;
        };
        http.oauth2ResourceServer(o -> o.jwt(j -> j.decoder(decoder()))
                .bearerTokenResolver(jwtsOnly)
                .authenticationEntryPoint((req, res, ex) -> problems.unauthorized(res)));
    }

    private JwtDecoder decoder() {
        NimbusJwtDecoder decoder = settings.jwkSetUri().isEmpty()
                ? NimbusJwtDecoder.withIssuerLocation(settings.issuerUri()).build()
                : NimbusJwtDecoder.withJwkSetUri(settings.jwkSetUri()).build();
        decoder.setJwtValidator(
                new DelegatingOAuth2TokenValidator<>(JwtValidators.createDefaultWithIssuer(settings.issuerUri())));
        return decoder;
    }

    /** The caller behind an authentication: an API key's or console user's, or a JWT's subject and grants claim. */
    Optional<Caller> caller(Authentication authentication) {
        if (authentication == null || !authentication.isAuthenticated()) return Optional.empty();
        if (authentication.getPrincipal() instanceof Caller caller) return Optional.of(caller);
        if (authentication instanceof JwtAuthenticationToken token) {
            Jwt jwt = token.getToken();
            return Optional.of(new Caller("oidc:" + jwt.getSubject(), null, grants(jwt.getClaims(), jwt.getSubject())));
        }
        if (authentication instanceof OAuth2AuthenticationToken token
                && token.getPrincipal() instanceof OidcUser user) {
            return Optional.of(
                    new Caller("oidc:" + user.getSubject(), null, grants(user.getClaims(), user.getSubject())));
        }
        return Optional.empty();
    }

    private Set<Grant> grants(Map<String, Object> claims, String subject) {
        Object claim = claims.get(settings.grantsClaim());
        List<String> texts;
        if (claim instanceof Collection<?> list) {
            texts = list.stream().map(String::valueOf).toList();
        } else if (claim instanceof String text) {
            texts = List.of(text.split("[\\s,]+"));
        } else {
            texts = List.of();
        }
        Set<Grant> grants = new LinkedHashSet<>();
        for (String text : texts) {
            if (text.isBlank()) continue;
            try {
                grants.add(Grant.parse(text));
            } catch (IllegalArgumentException e) {
                log.debug("ignoring grant '{}' of token subject {}", text, subject);
            }
        }
        return grants;
    }
}
