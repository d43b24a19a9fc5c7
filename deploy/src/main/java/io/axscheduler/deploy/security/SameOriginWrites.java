package io.axscheduler.deploy.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.util.Locale;
import java.util.Set;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses a state-changing request a browser says came from a page of another origin. The CSRF token stops a page of
 * another site; it does not stop a page on a sibling host of a shared parent domain, which can plant cookies for this
 * host: before sign-in the form's token is a cookie ({@link CsrfTokens}), so such a page could fetch a pair of its
 * own, plant the cookie and post the sign-in form with it, signing the visitor in to its account (login CSRF).
 *
 * <p>The browser's word is {@code Sec-Fetch-Site} ({@code same-origin}, or {@code none} for what the user did
 * directly), which it sends to HTTPS and localhost origins; elsewhere (plain HTTP, or a browser too old for it) the
 * {@code Origin} it sends with every POST, compared with this server's own origin as the request names it (behind a
 * proxy: the {@code Host} it passes on, or {@code X-Forwarded-Host} with the forwarded headers trusted). A request
 * with neither is not a browser's and is left to the token. On the API a bearer token's request passes: a browser
 * never adds one by itself, and which origins may call with one is CORS's matter.
 */
final class SameOriginWrites extends OncePerRequestFilter {

    static final String HEADER = "Sec-Fetch-Site";
    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS", "TRACE");
    private static final Set<String> OWN = Set.of("same-origin", "none");

    private final Problems problems;
    private final boolean bearerPasses;

    private SameOriginWrites(Problems problems, boolean bearerPasses) {
        this.problems = problems;
        this.bearerPasses = bearerPasses;
    }

    /** The console's chain: every write is a browser's, on its session. */
    static SameOriginWrites forConsole(Problems problems) {
        return new SameOriginWrites(problems, false);
    }

    /** The API's chain: a request with a bearer token carries its own credentials and passes. */
    static SameOriginWrites forApi(Problems problems) {
        return new SameOriginWrites(problems, true);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String refusal =
                SAFE_METHODS.contains(request.getMethod()) || bearerPasses && bearer(request) ? null : refusal(request);
        if (refusal == null) chain.doFilter(request, response);
        else problems.write(response, 403, "Forbidden", refusal);
    }

    private static boolean bearer(HttpServletRequest request) {
        String authorization = request.getHeader("Authorization");
        return authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7);
    }

    /** Why the request is refused, or null when its page is this server's (or it is not a browser's). */
    private static String refusal(HttpServletRequest request) {
        String site = request.getHeader(HEADER);
        if (site != null) {
            return OWN.contains(site)
                    ? null
                    : "a page of another origin (" + HEADER + ": " + printable(site) + ") may not change anything here";
        }
        String origin = request.getHeader("Origin");
        if (origin == null) return null;
        String own = ownOrigin(request);
        if (origin.equalsIgnoreCase(own)) return null;
        return "a page of another origin (Origin: " + printable(origin) + ", this server is " + printable(own)
                + ") may not change anything here; behind a proxy, pass the Host header on, or X-Forwarded-Host with"
                + " server.forward-headers-strategy set";
    }

    private static String ownOrigin(HttpServletRequest request) {
        String scheme = request.getScheme().toLowerCase(Locale.ROOT);
        int port = request.getServerPort();
        boolean defaultPort = port <= 0 || scheme.equals("http") && port == 80 || scheme.equals("https") && port == 443;
        String host = request.getServerName();
        if (host.contains(":") && !host.startsWith("[")) host = "[" + host + "]"; // an IPv6 literal
        return URI.create(scheme + "://" + host + (defaultPort ? "" : ":" + port))
                .toString();
    }

    private static String printable(String value) {
        return value.length() <= 100 && value.chars().allMatch(c -> c > 32 && c < 127) ? value : "unrecognised";
    }
}
