package io.axscheduler.deploy.security;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.springframework.security.web.savedrequest.RequestCache;
import org.springframework.security.web.savedrequest.SavedRequest;
import org.springframework.security.web.savedrequest.SimpleSavedRequest;
import org.springframework.web.util.WebUtils;

/**
 * Where to go back to after sign-in, kept in a cookie instead of a session: a visitor who is not signed in makes no
 * session row (a page of the console asked for without one, the sign-in page, a failed sign-in), so such requests
 * cost the database nothing — they answer while it is away, and a flood of them fills no table. Only the path and
 * query of a page of this server are kept, and only such a path is gone back to: a cookie set by someone else
 * cannot send the browser to another host after it signs in (Spring's cookie cache keeps the whole URL).
 */
final class ReturnPathCookie implements RequestCache {

    static final String COOKIE = "AX_RETURN_TO";
    private static final int MAX_AGE_S = 600;
    private static final int MAX_PATH = 2048;

    @Override
    public void saveRequest(HttpServletRequest request, HttpServletResponse response) {
        // a page's own fetches (htmx's, a script's) are not where the user was going
        if (!request.getMethod().equals("GET")
                || request.getHeader("HX-Request") != null
                || request.getHeader("X-Requested-With") != null) return;
        String path = pathOf(request);
        if (!local(path) || path.length() > MAX_PATH) return;
        write(
                request,
                response,
                Base64.getUrlEncoder().withoutPadding().encodeToString(path.getBytes(StandardCharsets.UTF_8)),
                MAX_AGE_S);
    }

    /** Asked at sign-in: the path is gone back to once, and the cookie spent with it (the redirect may re-encode it). */
    @Override
    public SavedRequest getRequest(HttpServletRequest request, HttpServletResponse response) {
        String path = saved(request);
        removeRequest(request, response);
        // a path without the context's: the redirect puts it in front
        return path == null ? null : new SimpleSavedRequest(path);
    }

    /** Nothing to restore: the path was a GET's, and the cookie is spent at sign-in. */
    @Override
    public HttpServletRequest getMatchingRequest(HttpServletRequest request, HttpServletResponse response) {
        return null;
    }

    @Override
    public void removeRequest(HttpServletRequest request, HttpServletResponse response) {
        if (WebUtils.getCookie(request, COOKIE) != null) write(request, response, "", 0);
    }

    private static String saved(HttpServletRequest request) {
        Cookie cookie = WebUtils.getCookie(request, COOKIE);
        if (cookie == null) return null;
        try {
            String path = new String(Base64.getUrlDecoder().decode(cookie.getValue()), StandardCharsets.UTF_8);
            return local(path) ? path : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The request's path within this application, with its query. */
    private static String pathOf(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        return request.getQueryString() == null ? path : path + "?" + request.getQueryString();
    }

    /**
     * A path on this server: one slash, then no second slash or backslash a browser would read as another host, no
     * control character, and no {@code .} or {@code ..} segment (the servlet container cannot make a redirect of one
     * that climbs above the root, and no page of the console is asked for so).
     */
    static boolean local(String path) {
        if (path.length() < 1 || path.charAt(0) != '/') return false;
        if (path.length() > 1 && (path.charAt(1) == '/' || path.charAt(1) == '\\')) return false;
        if (path.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) return false;
        int query = path.indexOf('?');
        for (String segment : (query < 0 ? path : path.substring(0, query)).split("/")) {
            if (segment.equals(".") || segment.equals("..")) return false;
        }
        return true;
    }

    private static void write(HttpServletRequest request, HttpServletResponse response, String value, int maxAge) {
        Cookie cookie = new Cookie(COOKIE, value);
        String context = request.getContextPath();
        cookie.setPath(context.isEmpty() ? "/" : context);
        cookie.setMaxAge(maxAge);
        cookie.setHttpOnly(true);
        cookie.setSecure(request.isSecure());
        cookie.setAttribute("SameSite", "Lax");
        response.addCookie(cookie);
    }
}
