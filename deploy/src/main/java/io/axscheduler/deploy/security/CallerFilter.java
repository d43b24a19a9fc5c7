package io.axscheduler.deploy.security;

import io.axscheduler.api.security.Caller;
import io.axscheduler.api.security.Role;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Puts the authenticated {@link Caller} in the request for the controllers, with {@code X-On-Behalf-Of} honoured only
 * for a caller holding {@code ON_BEHALF_OF} or {@code ADMIN} (403 otherwise: a caller who names someone it may not speak for is told
 * so, not silently recorded as itself).
 */
final class CallerFilter extends OncePerRequestFilter {

    static final String ON_BEHALF_OF_HEADER = "X-On-Behalf-Of";
    static final int MAX_ON_BEHALF_OF = 200;

    private final Function<Authentication, Optional<Caller>> callers;
    private final Problems problems;
    private final Clock clock;

    CallerFilter(Function<Authentication, Optional<Caller>> callers, Problems problems, Clock clock) {
        this.callers = callers;
        this.problems = problems;
        this.clock = clock;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        Optional<Caller> caller = callers.apply(authentication);
        // a bearer JWT holds until it expires: an open stream on it ends then (keys and sessions set their own check)
        if (caller.isPresent()
                && request.getAttribute(Caller.STILL_HOLDS) == null
                && authentication instanceof JwtAuthenticationToken jwt
                && jwt.getToken().getExpiresAt() != null) {
            Instant expires = jwt.getToken().getExpiresAt();
            request.setAttribute(
                    Caller.STILL_HOLDS, (BooleanSupplier) () -> clock.instant().isBefore(expires));
        }
        if (caller.isPresent()) {
            Caller who = caller.get();
            String onBehalfOf = request.getHeader(ON_BEHALF_OF_HEADER);
            if (onBehalfOf != null && !onBehalfOf.isBlank()) {
                if (!who.can("*", Role.ON_BEHALF_OF)) {
                    problems.forbidden(
                            response,
                            "the credentials do not allow this: " + ON_BEHALF_OF_HEADER + " needs a key with the"
                                    + " ON_BEHALF_OF role");
                    return;
                }
                // two of them would leave it to chance which person the audit names
                if (java.util.Collections.list(request.getHeaders(ON_BEHALF_OF_HEADER))
                                .size()
                        > 1) {
                    problems.invalid(response, ON_BEHALF_OF_HEADER, "must be given once");
                    return;
                }
                String name = onBehalfOf.strip();
                if (name.length() > MAX_ON_BEHALF_OF || name.chars().anyMatch(Character::isISOControl)) {
                    problems.invalid(
                            response,
                            ON_BEHALF_OF_HEADER,
                            "must be 1-" + MAX_ON_BEHALF_OF + " characters without control characters");
                    return;
                }
                who = new Caller(who.actor(), onBehalfOf.strip(), who.grants());
            }
            request.setAttribute(Caller.ATTRIBUTE, who);
        }
        chain.doFilter(request, response);
    }
}
