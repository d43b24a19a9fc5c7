package io.axscheduler.deploy.security;

import io.axscheduler.api.Causes;
import io.axscheduler.api.security.Caller;
import io.axscheduler.api.security.Grant;
import io.axscheduler.scheduler.remote.RateLimitedLog;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.client.authentication.OAuth2AuthenticationToken;
import org.springframework.security.oauth2.client.oidc.web.logout.OidcClientInitiatedLogoutSuccessHandler;
import org.springframework.security.oauth2.client.web.OAuth2AuthorizationRequestRedirectFilter;
import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.core.oidc.user.OidcUser;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.jwt.JwtValidators;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;
import org.springframework.security.oauth2.server.resource.web.BearerTokenResolver;
import org.springframework.security.oauth2.server.resource.web.DefaultBearerTokenResolver;
import org.springframework.security.web.authentication.logout.LogoutSuccessHandler;
import org.springframework.security.web.authentication.logout.SimpleUrlLogoutSuccessHandler;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * SSO through an OIDC provider, off unless {@code ax.oidc.issuer-uri} (AX_OIDC_ISSUER_URI) is set: the API then also
 * takes the provider's JWTs as bearer tokens, and with {@code ax.oidc.client-id} the console signs users in through
 * the provider (authorization code flow; the provider's discovery document is read when first needed, so
 * the node starts while the provider is down). The grants are the
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
    private final Clock clock;
    private final Set<String> ignoredGrants = ConcurrentHashMap.newKeySet();
    private final Set<String> refusedAudiences = ConcurrentHashMap.newKeySet();
    /** Failed sign-ins anyone can cause (a made-up callback): a few lines per 10 minutes. */
    private final RateLimitedLog signInFailures;
    /** A failed read of the issuer's keys, met by every JWT while it lasts: a line a minute. */
    private final RateLimitedLog keysUnreadableLog;

    /** The error codes a failed sign-in is logged by; any other (a callback's made-up one) is "other". */
    private static final Set<String> SIGN_IN_ERRORS = Set.of(
            "invalid_request",
            "invalid_client",
            "invalid_grant",
            "unauthorized_client",
            "unsupported_grant_type",
            "invalid_scope",
            "access_denied",
            "unsupported_response_type",
            "server_error",
            "temporarily_unavailable",
            "invalid_token",
            "invalid_id_token",
            "invalid_nonce",
            "invalid_state_parameter",
            "invalid_token_response",
            "invalid_user_info_response",
            "authorization_request_not_found",
            "client_registration_not_found",
            "login_required",
            "consent_required",
            "interaction_required");

    /**
     * {@code text} without control characters, line separators (a forged line in the log) or bidirectional formatting
     * characters (a line that reads otherwise than it is), at most {@code max} characters.
     */
    static String printable(String text, int max) {
        String clean = text.codePoints()
                .map(c -> Character.isISOControl(c)
                                || c == 0x2028
                                || c == 0x2029
                                || io.axscheduler.api.TextLimit.bidiFormatting(c)
                        ? '?'
                        : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
                .toString();
        return clean.length() > max ? clean.substring(0, max) + "…" : clean;
    }

    public Oidc(OidcSettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
        this.signInFailures = new RateLimitedLog(log, 5, 600_000, clock);
        this.keysUnreadableLog = new RateLimitedLog(log, 1, 60_000, clock);
    }

    boolean enabled() {
        return settings.enabled();
    }

    /**
     * The console's sign-in through the provider, on the login page beside the password form. The provider's
     * discovery document is read when a sign-in first needs it ({@link DiscoveredRegistration}); while it cannot be
     * read, a sign-in through it answers 503 with Retry-After.
     */
    void configureLogin(HttpSecurity http, Problems problems) throws Exception {
        if (!settings.loginEnabled()) return;
        DiscoveredRegistration registration = new DiscoveredRegistration(settings, clock);
        http.addFilterBefore(
                        new SignInUnavailable(registration, problems, settings.discoveryRetry()),
                        OAuth2AuthorizationRequestRedirectFilter.class)
                .oauth2Login(o -> o.clientRegistrationRepository(registration)
                        .loginPage("/login")
                        .failureHandler((request, response, e) -> {
                            // a wrong client secret, a refused consent, a tampered or replayed callback: the user is
                            // told sign-in through the provider failed, the operator why
                            // what a callback says comes from whoever sent it: a known code only, the rest at DEBUG
                            String code = e instanceof OAuth2AuthenticationException oauth
                                    ? oauth.getError().getErrorCode()
                                    : e.getClass().getSimpleName();
                            signInFailures.warn(
                                    "sign-in through the OIDC provider failed: {} (each one at DEBUG)",
                                    SIGN_IN_ERRORS.contains(code) ? code : "other");
                            log.debug(
                                    "sign-in through the OIDC provider failed: {}",
                                    printable(String.valueOf(e.getMessage()), 300));
                            response.sendRedirect(request.getContextPath() + "/login?error=sso");
                        }))
                .logout(l -> l.logoutSuccessHandler(signOutAtProvider(registration)));
    }

    /**
     * Signing out of the console also ends the session at the provider when it says where (its discovery document's
     * {@code end_session_endpoint}): the browser goes there with the ID token as a hint and comes back to the sign-in
     * page. Without it, or for a password user, or while the provider's document cannot be read, straight back to the
     * sign-in page: the console's session is ended either way.
     */
    private static LogoutSuccessHandler signOutAtProvider(DiscoveredRegistration registration) {
        OidcClientInitiatedLogoutSuccessHandler atProvider = new OidcClientInitiatedLogoutSuccessHandler(registration);
        atProvider.setPostLogoutRedirectUri("{baseUrl}/login?logout");
        atProvider.setDefaultTargetUrl("/login?logout");
        SimpleUrlLogoutSuccessHandler here = new SimpleUrlLogoutSuccessHandler();
        here.setDefaultTargetUrl("/login?logout");
        return (request, response, authentication) -> {
            if (authentication instanceof OAuth2AuthenticationToken
                    && registration.current().isPresent()) {
                atProvider.onLogoutSuccess(request, response, authentication);
            } else {
                here.onLogoutSuccess(request, response, authentication);
            }
        };
    }

    /**
     * A sign-in through the provider while its registration cannot be read answers 503 with Retry-After; Spring's
     * redirect filter would answer 500 for a registration it cannot find.
     */
    private static final class SignInUnavailable extends OncePerRequestFilter {

        private final DiscoveredRegistration registration;
        private final Problems problems;
        private final Duration retry;

        SignInUnavailable(DiscoveredRegistration registration, Problems problems, Duration retry) {
            this.registration = registration;
            this.problems = problems;
            this.retry = retry;
        }

        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            boolean signIn =
                    request.getRequestURI().equals(request.getContextPath() + "/oauth2/authorization/" + REGISTRATION);
            if (signIn && registration.current().isEmpty()) {
                response.setHeader("Retry-After", String.valueOf(Math.max(1, retry.toSeconds())));
                problems.write(
                        response,
                        503,
                        "Service unavailable",
                        "the sign-in provider cannot be reached; sign in with a password, or try again");
                return;
            }
            chain.doFilter(request, response);
        }
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
                .authenticationEntryPoint((req, res, ex) -> {
                    if (Causes.any(ex, KeysUnreadable.class)) {
                        // the token may well be good: a client must not take it for bad credentials
                        res.setHeader(
                                "Retry-After",
                                String.valueOf(
                                        Math.max(1, settings.discoveryRetry().toSeconds())));
                        problems.write(
                                res,
                                503,
                                "Service unavailable",
                                "the OIDC issuer's keys cannot be read now, so the token cannot be checked; try again");
                        return;
                    }
                    problems.unauthorized(res);
                }));
    }

    /** The issuer's discovery document or keys could not be read: no judgement of the token. */
    static final class KeysUnreadable extends BadJwtException {
        KeysUnreadable() {
            super("the issuer's keys cannot be read now");
        }

        KeysUnreadable(Throwable cause) {
            super("the issuer's keys cannot be read now", cause);
        }
    }

    private KeysUnreadable keysUnreadable(Throwable cause) {
        keysUnreadableLog.warn(
                "the OIDC issuer's keys cannot be read (JWTs are answered 503 until they can): {}",
                printable(String.valueOf(cause), 500));
        return new KeysUnreadable(cause);
    }

    /**
     * The API's JWT decoder. Its keys' address comes from {@code jwk-set-uri} or, read when the first JWT arrives, from
     * the issuer's discovery document: the node starts while the provider is down. A JWT it cannot check because the
     * document or the keys cannot be read (not yet, or not now: the key cache expired or the token names a key not
     * cached) answers 503 ({@link KeysUnreadable}); the next read of the document waits {@code discovery-retry}.
     */
    private JwtDecoder decoder() {
        if (!settings.jwkSetUri().isEmpty())
            return keysReadOrUnreadable(validated(NimbusJwtDecoder.withJwkSetUri(settings.jwkSetUri())));
        ReadWhenNeeded<JwtDecoder> discovered = new ReadWhenNeeded<>(
                "the OIDC issuer's discovery document at " + settings.issuerUri(),
                () -> keysReadOrUnreadable(validated(NimbusJwtDecoder.withIssuerLocation(settings.issuerUri()))),
                clock,
                settings.discoveryRetry());
        return token -> discovered.get().orElseThrow(KeysUnreadable::new).decode(token);
    }

    /**
     * A failed read of the issuer's keys is no judgement of the token: {@link KeysUnreadable} (503), not Spring's
     * internal error (500). A token that names a key the issuer does not have is a bad token as ever (401).
     */
    private JwtDecoder keysReadOrUnreadable(JwtDecoder decoder) {
        return token -> {
            try {
                return decoder.decode(token);
            } catch (JwtException e) {
                if (Causes.any(e, com.nimbusds.jose.KeySourceException.class)) throw keysUnreadable(e);
                throw e;
            }
        };
    }

    private JwtDecoder validated(NimbusJwtDecoder.JwkSetUriJwtDecoderBuilder builder) {
        NimbusJwtDecoder decoder = builder.build();
        decoder.setJwtValidator(new DelegatingOAuth2TokenValidator<>(
                JwtValidators.createDefaultWithIssuer(settings.issuerUri()), this::issuedForUs));
        return decoder;
    }

    /**
     * A token of the issuer is taken only when issued for this scheduler ({@link OidcSettings#takes}): another
     * application's token, from the same realm and carrying the same grants claim, is not a key to this one. A token
     * whose {@code typ} claim names another kind than {@code Bearer} (Keycloak's ID, refresh and logout tokens) is
     * refused too; an ID token of a provider that does not mark it so is told apart only by its audience.
     */
    private OAuth2TokenValidatorResult issuedForUs(Jwt jwt) {
        String typ = jwt.getClaimAsString("typ");
        if (typ != null && !typ.equalsIgnoreCase("Bearer")) {
            // Keycloak names each token's kind: an ID, refresh or logout token says who signed in, not what may be
            // called
            return refusal("a token of type " + typ + " is no access token; send the access token");
        }
        if (settings.takes(jwt.getAudience(), jwt.getClaimAsString("azp"))) return OAuth2TokenValidatorResult.success();
        String seen = "aud " + jwt.getAudience() + ", azp " + jwt.getClaimAsString("azp");
        if (refusedAudiences.size() < 1_000 && refusedAudiences.add(seen)) {
            log.warn(
                    "refusing tokens issued for {} (subject {} the first): ax.oidc.audiences takes {}",
                    seen,
                    jwt.getSubject(),
                    settings.audiences());
        }
        return refusal("the token is not issued for this scheduler (ax.oidc.audiences)");
    }

    private static OAuth2TokenValidatorResult refusal(String why) {
        return OAuth2TokenValidatorResult.failure(new OAuth2Error("invalid_token", why, null));
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

    private static final java.util.regex.Pattern GRANT_IN_TEXT =
            java.util.regex.Pattern.compile("[^\\s,:]*(?:\\s*:\\s*[^\\s,:]*)+|[^\\s,]+");

    private Set<Grant> grants(Map<String, Object> claims, String subject) {
        Object claim = claims.get(settings.grantsClaim());
        List<String> texts;
        if (claim instanceof Collection<?> list) {
            texts = list.stream().map(String::valueOf).toList();
        } else if (claim instanceof String text) {
            // separated by spaces or commas, but "team-a : ADMIN" is one grant (split, its ADMIN would read as global)
            texts = GRANT_IN_TEXT.matcher(text).results().map(m -> m.group()).toList();
        } else {
            texts = List.of();
        }
        Set<Grant> grants = new LinkedHashSet<>();
        boolean malformed = false;
        for (String text : texts) {
            if (text.isBlank()) continue;
            try {
                Grant grant = Grant.parse(text);
                if (!grant.role().global() && io.axscheduler.api.Namespaces.isReserved(grant.namespace()))
                    throw new IllegalArgumentException(io.axscheduler.api.Namespaces.SYSTEM
                            + " is the scheduler's own namespace, which only ADMIN sees");
                grants.add(grant);
            } catch (IllegalArgumentException e) {
                // said once per grant text (a token is read on every request): an operator mapping claims sees why
                if (ignoredGrants.size() < 1_000 && ignoredGrants.add(text)) {
                    log.warn(
                            "ignoring grant '{}' in claim {} of token subject {} (and of any later token): it must be"
                                    + " namespace:ROLE with a namespace of [a-z0-9-]{1,63}, or a bare global role"
                                    + " (ADMIN); {}",
                            text,
                            settings.grantsClaim(),
                            subject,
                            e.getMessage());
                }
                malformed = true;
            }
        }
        if (malformed && grants.removeIf(g -> g.role().global())) {
            // a claim that also holds a grant written wrongly may have meant a namespaced one ("team-a： ADMIN" with a
            // full-width colon reads as a broken part and a bare ADMIN): a global role is not taken from it
            log.warn(
                    "not taking a global role from claim {} of token subject {}: the claim also holds a grant that is"
                            + " not one",
                    settings.grantsClaim(),
                    subject);
        }
        return grants;
    }
}
