package io.axscheduler.deploy.security;

import io.axscheduler.api.security.Caller;
import io.axscheduler.api.security.Grant;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.springframework.dao.DataAccessException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.client.authentication.OAuth2AuthenticationToken;
import org.springframework.security.oauth2.core.oidc.user.OidcUser;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * A console user's session speaks for the user as {@code console_users} holds them now, not as they were at sign-in:
 * grants changed since take effect at the session's next request, on any node, and the sessions of a user deleted
 * (or deleted and made again, another account under the same name) end there: the session is invalidated and the
 * request goes on unauthenticated (the console sends it to /login, the API answers 401). One look-up by primary key per request that rides on a console user's session.
 *
 * <p>A sign-in through the OIDC provider cannot be asked again: its grants are the ID token's claims as they were.
 * Such a session ends {@code ax.oidc.session-max} after the token was issued, however busy, so grants taken away at
 * the provider take effect at the next sign-in, within that time.
 */
final class SignedInUsers extends OncePerRequestFilter {

    private final ConsoleUsers users;
    private final Clock clock;
    private final Duration oidcSessionMax;

    SignedInUsers(ConsoleUsers users, Clock clock, Duration oidcSessionMax) {
        this.users = users;
        this.clock = clock;
        this.oidcSessionMax = oidcSessionMax;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Authentication signedIn = SecurityContextHolder.getContext().getAuthentication();
        if (signedIn instanceof UsernamePasswordAuthenticationToken
                && signedIn.isAuthenticated()
                && signedIn.getPrincipal() instanceof Caller caller
                && caller.actor().startsWith(ConsoleLogin.USER)) {
            String username = caller.actor().substring(ConsoleLogin.USER.length());
            Optional<ConsoleUsers.Stored> now = sameAccount(username, signedIn);
            if (now.isEmpty()) {
                end(request);
            } else {
                Set<Grant> grants = now.get().grants();
                if (!grants.equals(caller.grants())) {
                    UsernamePasswordAuthenticationToken current = UsernamePasswordAuthenticationToken.authenticated(
                            new Caller(caller.actor(), caller.onBehalfOf(), grants), null, List.of());
                    current.setDetails(signedIn.getDetails());
                    SecurityContext context = SecurityContextHolder.createEmptyContext();
                    context.setAuthentication(current);
                    SecurityContextHolder.setContext(context);
                }
                request.setAttribute(Caller.STILL_HOLDS, (BooleanSupplier) () -> {
                    try {
                        return sameAccount(username, signedIn)
                                .filter(u -> u.grants().equals(grants))
                                .isPresent();
                    } catch (DataAccessException e) {
                        return true; // cannot be checked now: asked again later
                    }
                });
            }
        } else if (signedIn instanceof OAuth2AuthenticationToken && signedIn.getPrincipal() instanceof OidcUser user) {
            Instant issued = user.getIssuedAt();
            Instant ends = issued == null ? Instant.MIN : issued.plus(oidcSessionMax);
            if (!clock.instant().isBefore(ends)) {
                end(request);
            } else {
                request.setAttribute(Caller.STILL_HOLDS, (BooleanSupplier)
                        () -> clock.instant().isBefore(ends));
            }
        }
        chain.doFilter(request, response);
    }

    private static void end(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        if (session != null) session.invalidate();
        SecurityContextHolder.clearContext();
    }

    /**
     * The user as {@code console_users} holds them now, if it is still the account the session signed in to: empty when
     * deleted, or deleted and made again under the same name since.
     */
    private Optional<ConsoleUsers.Stored> sameAccount(String username, Authentication signedIn) {
        return users.find(username)
                .filter(u -> !(signedIn.getDetails() instanceof ConsoleLogin.Account account)
                        || u.createdAt() == account.createdAt());
    }
}
