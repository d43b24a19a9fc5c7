package io.axscheduler.deploy.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.security.web.csrf.CookieCsrfTokenRepository;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.security.web.csrf.CsrfTokenRepository;
import org.springframework.security.web.csrf.HttpSessionCsrfTokenRepository;
import org.springframework.web.util.WebUtils;

/**
 * The console's CSRF token: in the session once there is one (after sign-in), in an HttpOnly cookie before. A token
 * in a session before sign-in would make a session — a database row — for every visitor of the sign-in page; a token
 * only in a cookie after sign-in would be a double-submit cookie, which a page on a sibling host of a shared parent
 * domain can plant (its own cookie, its own token) and then post with as the signed-in user. Sign-in moves the token
 * from the cookie to the session (Spring replaces the token at sign-in; the new one is stored where the request's
 * session, made by then, says), and a stored token clears the cookie.
 */
final class CsrfTokens implements CsrfTokenRepository {

    static final String COOKIE = "AX_CSRF";
    static final String HEADER = "X-CSRF-TOKEN";

    private final HttpSessionCsrfTokenRepository session = new HttpSessionCsrfTokenRepository();
    private final CookieCsrfTokenRepository cookie = new CookieCsrfTokenRepository();

    CsrfTokens() {
        session.setHeaderName(HEADER);
        cookie.setCookieName(COOKIE);
        cookie.setHeaderName(HEADER);
        cookie.setCookieCustomizer(c -> c.sameSite("Lax"));
    }

    @Override
    public CsrfToken generateToken(HttpServletRequest request) {
        return signedIn(request) ? session.generateToken(request) : cookie.generateToken(request);
    }

    @Override
    public void saveToken(CsrfToken token, HttpServletRequest request, HttpServletResponse response) {
        boolean hasCookie = WebUtils.getCookie(request, COOKIE) != null;
        if (signedIn(request)) {
            session.saveToken(token, request, response);
            // the cookie's token of before sign-in is spent
            if (hasCookie) cookie.saveToken(null, request, response);
        } else if (token != null || hasCookie) {
            cookie.saveToken(token, request, response);
        }
    }

    @Override
    public CsrfToken loadToken(HttpServletRequest request) {
        return signedIn(request) ? session.loadToken(request) : cookie.loadToken(request);
    }

    /** A session exists: the console's sessions begin at sign-in (and the OIDC provider's sign-in flow). */
    private static boolean signedIn(HttpServletRequest request) {
        return request.getSession(false) != null;
    }
}
