package io.axscheduler.deploy.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Set;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses a state-changing request a browser says came from a page of another origin ({@code Sec-Fetch-Site} other
 * than {@code same-origin} or {@code none}), unless it carries its own credentials (an {@code Authorization} header,
 * which a browser never adds on its own). The CSRF token stops a page of another site; it does not stop a page on a
 * sibling host of a shared parent domain, which can plant cookies for this host: before sign-in the form's token is a
 * cookie ({@link CsrfTokens}), so such a page could fetch a pair of its own, plant the cookie and post the sign-in form
 * with it, signing the visitor in to its account (login CSRF). The browser marks that post {@code same-site}, which is
 * refused here. A request without the header (a client that is not a browser, or a browser too old to send it) is left
 * to the CSRF token.
 */
final class SameOriginWrites extends OncePerRequestFilter {

    static final String HEADER = "Sec-Fetch-Site";
    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS", "TRACE");
    private static final Set<String> OWN = Set.of("same-origin", "none");

    private final Problems problems;

    SameOriginWrites(Problems problems) {
        this.problems = problems;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String site = request.getHeader(HEADER);
        if (site == null
                || OWN.contains(site)
                || SAFE_METHODS.contains(request.getMethod())
                || request.getHeader("Authorization") != null) {
            chain.doFilter(request, response);
            return;
        }
        problems.write(
                response,
                403,
                "Forbidden",
                "a page of another origin (" + HEADER + ": " + printable(site) + ") may not change anything here");
    }

    private static String printable(String value) {
        return value.length() <= 20 && value.chars().allMatch(c -> c == '-' || Character.isLetter(c))
                ? value
                : "unrecognised";
    }
}
