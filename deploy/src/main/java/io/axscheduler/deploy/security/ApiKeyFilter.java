package io.axscheduler.deploy.security;

import io.axscheduler.api.security.Caller;
import io.axscheduler.api.security.Grant;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.springframework.dao.DataAccessException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * {@code Authorization: Bearer <key>} against {@link ApiKeys}. A bearer token that is not a valid key is answered 401
 * at once; a JWT (three dot-separated parts) is left to the OIDC resource server when one is configured.
 */
final class ApiKeyFilter extends OncePerRequestFilter {

    private final ApiKeys keys;
    private final boolean oidc;
    private final Problems problems;

    ApiKeyFilter(ApiKeys keys, boolean oidc, Problems problems) {
        this.keys = keys;
        this.oidc = oidc;
        this.problems = problems;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String header = request.getHeader("Authorization");
        if (header == null) {
            chain.doFilter(request, response);
            return;
        }
        if (!header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            problems.unauthorized(response);
            return;
        }
        String token = header.substring(7).trim();
        if (oidc && token.chars().filter(c -> c == '.').count() == 2) {
            chain.doFilter(request, response);
            return;
        }
        Optional<ApiKeys.KeyHolder> holder;
        try {
            holder = keys.authenticate(token);
        } catch (DataAccessException e) {
            if (health(request)) {
                // a monitor's key cannot be checked: it is answered as a caller without credentials is, the status
                // alone (DOWN, 503, as the database is away), not an error in place of the health answer
                chain.doFilter(request, response);
                return;
            }
            // the key cannot be checked: the same 503 a request gets when its own work cannot reach the database
            problems.unavailable(response);
            return;
        }
        if (holder.isEmpty()) {
            problems.unauthorized(response);
            return;
        }
        Caller caller =
                new Caller("key:" + holder.get().name(), null, holder.get().grants());
        Set<Grant> grants = holder.get().grants();
        request.setAttribute(Caller.STILL_HOLDS, (BooleanSupplier) () -> {
            try {
                return keys.authenticate(token)
                        .map(h -> h.grants().equals(grants))
                        .orElse(false);
            } catch (DataAccessException e) {
                return true; // cannot be checked now: asked again later
            }
        });
        SecurityContextHolder.getContext()
                .setAuthentication(UsernamePasswordAuthenticationToken.authenticated(caller, null, List.of()));
        chain.doFilter(request, response);
    }

    /** A public health path ({@link SecuritySetup#PUBLIC_HEALTH}): the health and the orchestrators' probes. */
    private static boolean health(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        return java.util.Arrays.asList(SecuritySetup.PUBLIC_HEALTH).contains(path);
    }
}
