package io.axscheduler.deploy.security;

import io.axscheduler.api.security.Caller;
import io.axscheduler.api.security.Grant;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.springframework.dao.DataAccessException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * A console user's session speaks for the user as {@code console_users} holds them now, not as they were at sign-in:
 * grants changed since take effect at the session's next request, on any node, and the sessions of a user deleted
 * (or deleted and made again, another account under the same name) end there: the session is invalidated and the
 * request goes on unauthenticated (the console sends it to /login, the API answers 401). One look-up by primary key per request that rides on a console user's session.
 */
final class SignedInUsers extends OncePerRequestFilter {

    private final ConsoleUsers users;

    SignedInUsers(ConsoleUsers users) {
        this.users = users;
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
                HttpSession session = request.getSession(false);
                if (session != null) session.invalidate();
                SecurityContextHolder.clearContext();
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
        }
        chain.doFilter(request, response);
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
