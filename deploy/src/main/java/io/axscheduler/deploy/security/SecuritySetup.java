package io.axscheduler.deploy.security;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.security.Caller;
import io.axscheduler.api.security.Role;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.springframework.boot.autoconfigure.web.ServerProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.security.authorization.AuthorizationDecision;
import org.springframework.security.authorization.AuthorizationManager;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.Authentication;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.security.web.access.intercept.RequestAuthorizationContext;
import org.springframework.security.web.authentication.AnonymousAuthenticationFilter;
import org.springframework.security.web.authentication.SimpleUrlAuthenticationFailureHandler;
import org.springframework.security.web.context.HttpSessionSecurityContextRepository;
import org.springframework.security.web.csrf.CsrfException;
import org.springframework.security.web.csrf.CsrfFilter;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.security.web.header.writers.ReferrerPolicyHeaderWriter;
import org.springframework.session.web.http.CookieSerializer;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.UrlBasedCorsConfigurationSource;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Two filter chains. {@code /api/**} and {@code /actuator/**}: bearer API keys (or OIDC JWTs), stateless, no CSRF (a
 * browser never sends the Authorization header on its own, so a cross-site request arrives unauthenticated).
 * Everything else, the console: form login at {@code /login} (and sign-in through the OIDC provider when one is
 * configured with a client), a session cookie, CSRF tokens. Each endpoint needs a role somewhere here; the namespace
 * of the job or schedule is checked where it is known (the controllers).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({SecuritySettings.class, BootstrapSettings.class, DataDirectory.class, OidcSettings.class
})
class SecuritySetup {

    /** The health paths anyone may ask: the status alone without credentials, as orchestrators' probes ask it. */
    static final String[] PUBLIC_HEALTH = {"/actuator/health", "/actuator/health/liveness", "/actuator/health/readiness"
    };

    @Bean
    PasswordEncoder passwordEncoder() {
        return new BCryptPasswordEncoder();
    }

    /**
     * A request the firewall refuses before any filter chain (a TRACE, an encoded slash or a {@code ;} in the path, a
     * header with control characters) is answered as every other refusal, in application/problem+json, rather than
     * with an empty 400.
     */
    @Bean
    org.springframework.security.web.firewall.RequestRejectedHandler requestRejected(ObjectMapper json) {
        Problems problems = new Problems(json);
        return (request, response, rejected) -> problems.write(
                response, 400, "Invalid request", "refused by the server's request rules: " + rejected.getMessage());
    }

    /** {@code __Host-SESSION} over HTTPS, {@code SESSION} over plain HTTP ({@link SessionCookies}). */
    @Bean
    CookieSerializer sessionCookies(ServerProperties server) {
        return new SessionCookies(server);
    }

    @Bean
    @Order(1)
    SecurityFilterChain api(
            HttpSecurity http,
            ApiKeys keys,
            ConsoleUsers users,
            ObjectMapper json,
            Oidc oidc,
            OidcSettings oidcSettings,
            SecuritySettings settings,
            Clock clock)
            throws Exception {
        Problems problems = new Problems(json);
        http.securityMatcher("/api/**", "/actuator/**")
                // the console's own pages call the API with the signed-in session: such a request (a cookie, no
                // Authorization header) needs the session's CSRF token; a bearer request needs none
                .csrf(c -> c.csrfTokenRepository(CSRF_TOKENS).requireCsrfProtectionMatcher(SecuritySetup::sessionWrite))
                .securityContext(c -> c.securityContextRepository(sessionIfAny()))
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.NEVER))
                .requestCache(c -> c.disable())
                .formLogin(f -> f.disable())
                .httpBasic(b -> b.disable())
                .logout(l -> l.disable())
                .addFilterBefore(SameOriginWrites.forApi(problems), CsrfFilter.class)
                .addFilterBefore(new ApiKeyFilter(keys, oidc.enabled(), problems), AnonymousAuthenticationFilter.class)
                .addFilterBefore(
                        new SignedInUsers(users, clock, oidcSettings.sessionMax()), AnonymousAuthenticationFilter.class)
                .addFilterBefore(new CallerFilter(oidc::caller, problems, clock), AuthorizationFilter.class)
                .exceptionHandling(e -> e.authenticationEntryPoint((req, res, ex) -> problems.unauthorized(res))
                        .accessDeniedHandler((req, res, ex) -> {
                            if (ex instanceof CsrfException) problems.csrf(res);
                            else problems.forbidden(res, NeedsRole.of(ex));
                        }))
                .headers(SecuritySetup::headers)
                // a stream's end (its client gone, its time up) is dispatched again without the key's filter; the
                // request it ends was authorized when it began
                .authorizeHttpRequests(a -> a.dispatcherTypeMatchers(DispatcherType.ASYNC)
                        .permitAll()
                        // the overall status and an orchestrator's probes are public; a component's details are
                        // a viewer's (an anonymous caller would otherwise get an empty 404 for one)
                        .requestMatchers(PUBLIC_HEALTH)
                        .permitAll()
                        .requestMatchers("/actuator/**")
                        .access(somewhere(oidc, Role.VIEWER))
                        .requestMatchers("/api/v1/admin/**")
                        .access(somewhere(oidc, Role.ADMIN))
                        .requestMatchers(HttpMethod.GET, "/api/v1/workers")
                        .access(somewhere(oidc, Role.VIEWER))
                        .requestMatchers("/api/v1/workers/**")
                        .access(somewhere(oidc, Role.WORKER))
                        .requestMatchers(HttpMethod.POST, "/api/v1/cron/validate")
                        .access(somewhere(oidc, Role.VIEWER))
                        .requestMatchers(HttpMethod.POST, "/api/v1/schedules", "/api/v1/schedules/batch")
                        .access(somewhere(oidc, Role.EDITOR))
                        .requestMatchers(HttpMethod.PUT, "/api/v1/schedules/*")
                        .access(somewhere(oidc, Role.EDITOR))
                        .requestMatchers(HttpMethod.DELETE, "/api/v1/schedules/*")
                        .access(somewhere(oidc, Role.EDITOR))
                        .requestMatchers(
                                HttpMethod.POST,
                                "/api/v1/schedules/*/pause",
                                "/api/v1/schedules/*/resume",
                                "/api/v1/schedules/*/trigger",
                                "/api/v1/jobs",
                                "/api/v1/jobs/batch",
                                "/api/v1/jobs/*/cancel",
                                "/api/v1/jobs/*/retry")
                        .access(somewhere(oidc, Role.OPERATOR))
                        .requestMatchers(HttpMethod.GET, "/api/**")
                        .access(somewhere(oidc, Role.VIEWER))
                        .anyRequest()
                        .access(somewhere(oidc, Role.ADMIN)));
        cors(http, settings.cors().allowedOrigins());
        oidc.configure(http, problems);
        return http.build();
    }

    @Bean
    @Order(2)
    SecurityFilterChain console(
            HttpSecurity http,
            ConsoleUsers users,
            LoginAddresses addresses,
            PasswordEncoder encoder,
            ObjectMapper json,
            Oidc oidc,
            OidcSettings oidcSettings,
            Clock clock)
            throws Exception {
        Problems problems = new Problems(json);
        ReturnPathCookie returnPath = new ReturnPathCookie();
        http.authenticationProvider(new ConsoleLogin(users, addresses, encoder))
                // the console's sign-in page at /login (LoginPage, with its CSRF token); POST /login signs in
                .formLogin(f ->
                        f.loginPage("/login").failureHandler(failedSignIn()).permitAll())
                // no session before sign-in: the CSRF token (CsrfTokens) and the page to go back to, as it was asked
                // for (no "?continue" marker on it; ReturnPathCookie), are cookies until then
                .csrf(c -> c.csrfTokenRepository(CSRF_TOKENS))
                // the token alone does not stop a sibling host's page posting with a cookie it planted
                .addFilterBefore(SameOriginWrites.forConsole(problems), CsrfFilter.class)
                .addFilterAfter(new CsrfCookieFirst(), CsrfFilter.class)
                .requestCache(c -> c.requestCache(returnPath))
                .logout(l -> l.logoutUrl("/logout")
                        .addLogoutHandler((request, response, signedOut) -> returnPath.removeRequest(request, response))
                        .logoutSuccessUrl("/login?logout")
                        .permitAll())
                .sessionManagement(s -> s.sessionFixation(f -> f.changeSessionId()))
                .addFilterBefore(
                        new SignedInUsers(users, clock, oidcSettings.sessionMax()), AnonymousAuthenticationFilter.class)
                .addFilterBefore(new CallerFilter(oidc::caller, problems, clock), AuthorizationFilter.class)
                .headers(SecuritySetup::headers)
                .authorizeHttpRequests(a -> a.dispatcherTypeMatchers(DispatcherType.ASYNC)
                        .permitAll()
                        .requestMatchers("/login", "/error", "/favicon.ico", "/console-assets/**")
                        .permitAll()
                        .anyRequest()
                        .authenticated());
        oidc.configureLogin(http, problems);
        return http.build();
    }

    /** One store of the console's CSRF tokens for both chains: the API reads the console's token on its calls. */
    private static final CsrfTokens CSRF_TOKENS = new CsrfTokens();

    /**
     * Loads a console request's CSRF token before the page is written, so that a new token's cookie goes out with the
     * headers: a page that reached the token only after the response was committed (a long page, its form at the end)
     * would carry a token whose cookie never left.
     */
    private static final class CsrfCookieFirst extends OncePerRequestFilter {
        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            if (request.getAttribute(CsrfToken.class.getName()) instanceof CsrfToken token) token.getToken();
            chain.doFilter(request, response);
        }
    }

    /** Back to the sign-in page with {@code ?error}; Spring's handler would keep the failure in a new session. */
    private static SimpleUrlAuthenticationFailureHandler failedSignIn() {
        SimpleUrlAuthenticationFailureHandler handler = new SimpleUrlAuthenticationFailureHandler("/login?error");
        handler.setAllowSessionCreation(false);
        return handler;
    }

    /**
     * The API reads the console's signed-in session when a request carries one, but never makes one: a key's or a
     * token's request would otherwise leave a session behind (held for half an hour) at every call.
     */
    private static HttpSessionSecurityContextRepository sessionIfAny() {
        HttpSessionSecurityContextRepository repository = new HttpSessionSecurityContextRepository();
        repository.setAllowSessionCreation(false);
        return repository;
    }

    /** A state-changing request riding on an existing session cookie rather than a bearer token. */
    private static boolean sessionWrite(HttpServletRequest request) {
        String method = request.getMethod();
        boolean safe = method.equals("GET") || method.equals("HEAD") || method.equals("OPTIONS");
        return !safe && request.getHeader("Authorization") == null && request.getSession(false) != null;
    }

    private static void headers(
            org.springframework.security.config.annotation.web.configurers.HeadersConfigurer<HttpSecurity> h) {
        h.contentTypeOptions(c -> {})
                .frameOptions(f -> f.deny())
                .referrerPolicy(r -> r.policy(ReferrerPolicyHeaderWriter.ReferrerPolicy.SAME_ORIGIN))
                .contentSecurityPolicy(
                        c -> c.policyDirectives("frame-ancestors 'none'; object-src 'none'; base-uri 'self'"));
    }

    /** No CORS headers at all unless origins are configured: a browser on another origin then reads nothing. */
    private static void cors(HttpSecurity http, List<String> allowed) throws Exception {
        if (allowed.isEmpty()) {
            http.cors(c -> c.disable());
            return;
        }
        CorsConfiguration config = new CorsConfiguration();
        config.setAllowedOrigins(allowed);
        config.setAllowedMethods(List.of("GET", "POST", "PUT", "DELETE"));
        config.setAllowedHeaders(List.of("Authorization", "Content-Type", CallerFilter.ON_BEHALF_OF_HEADER));
        config.setMaxAge(600L);
        UrlBasedCorsConfigurationSource source = new UrlBasedCorsConfigurationSource();
        source.registerCorsConfiguration("/api/**", config);
        http.cors(c -> c.configurationSource(source));
    }

    private static AuthorizationManager<RequestAuthorizationContext> somewhere(Oidc oidc, Role role) {
        return (Supplier<Authentication> authentication, RequestAuthorizationContext context) -> {
            Optional<Caller> caller = oidc.caller(authentication.get());
            return new NeedsRole(caller.map(c -> c.canSomewhere(role)).orElse(false), role);
        };
    }

    /** A decision that knows the role the request needs, so that its refusal can name it. */
    static final class NeedsRole extends AuthorizationDecision {

        final Role role;

        NeedsRole(boolean granted, Role role) {
            super(granted);
            this.role = role;
        }

        /** What a refusal says: the grants that would do, anywhere. */
        static String of(org.springframework.security.access.AccessDeniedException refused) {
            return refused instanceof org.springframework.security.authorization.AuthorizationDeniedException denied
                            && denied.getAuthorizationResult() instanceof NeedsRole needs
                    ? "the credentials do not allow this: it needs "
                            + (needs.role.global()
                                    ? "the " + needs.role + " role (global: it takes no namespace)"
                                    : "a grant of " + needs.role.grantsCovering() + " in some namespace")
                    : null;
        }
    }
}
