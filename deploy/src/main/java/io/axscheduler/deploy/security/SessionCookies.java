package io.axscheduler.deploy.security;

import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.springframework.boot.autoconfigure.web.ServerProperties;
import org.springframework.boot.web.server.Cookie;
import org.springframework.session.web.http.CookieSerializer;
import org.springframework.session.web.http.DefaultCookieSerializer;

/**
 * The console's session cookie. Over HTTPS it is {@code __Host-SESSION}: a browser takes a cookie of that name only
 * from this very host, Secure and for the whole path, so a page on a sibling host of a shared parent domain cannot
 * plant a session of its own making (signing the visitor in as someone else). Over plain HTTP no prefix holds (a
 * browser drops a {@code __Host-} cookie that is not Secure) and it is {@code SESSION}, as Spring Session names it;
 * each scheme reads only its own, so a plain cookie planted for the parent domain counts for nothing on HTTPS.
 * "HTTPS" is the request's scheme as the node sees it: TLS on the node, or a proxy's {@code X-Forwarded-Proto} with
 * {@code server.forward-headers-strategy} set. A name, domain or path configured under
 * {@code server.servlet.session.cookie} is used as given for both schemes (a {@code __Host-} cookie has no domain).
 */
final class SessionCookies implements CookieSerializer {

    static final String PLAIN = "SESSION";
    static final String HOST_ONLY = "__Host-SESSION";

    private final DefaultCookieSerializer plain;
    private final DefaultCookieSerializer secure;

    SessionCookies(ServerProperties server) {
        Cookie settings = server.getServlet().getSession().getCookie();
        boolean configured = settings.getName() != null || settings.getDomain() != null || settings.getPath() != null;
        this.plain = serializer(settings, PLAIN);
        this.secure = configured ? plain : hostOnly(settings);
    }

    /** {@code __Host-SESSION}: Secure and for the whole path, as browsers require of the prefix. */
    private static DefaultCookieSerializer hostOnly(Cookie settings) {
        DefaultCookieSerializer serializer = serializer(settings, HOST_ONLY);
        serializer.setUseSecureCookie(true);
        serializer.setCookiePath("/");
        return serializer;
    }

    private static DefaultCookieSerializer serializer(Cookie settings, String defaultName) {
        DefaultCookieSerializer serializer = new DefaultCookieSerializer();
        serializer.setCookieName(settings.getName() != null ? settings.getName() : defaultName);
        if (settings.getDomain() != null) serializer.setDomainName(settings.getDomain());
        if (settings.getPath() != null) serializer.setCookiePath(settings.getPath());
        if (settings.getHttpOnly() != null) serializer.setUseHttpOnlyCookie(settings.getHttpOnly());
        if (settings.getSecure() != null) serializer.setUseSecureCookie(settings.getSecure());
        if (settings.getMaxAge() != null)
            serializer.setCookieMaxAge((int) settings.getMaxAge().toSeconds());
        serializer.setSameSite(
                settings.getSameSite() != null ? settings.getSameSite().attributeValue() : "Lax");
        return serializer;
    }

    @Override
    public void writeCookieValue(CookieValue cookieValue) {
        of(cookieValue.getRequest()).writeCookieValue(cookieValue);
    }

    @Override
    public List<String> readCookieValues(HttpServletRequest request) {
        return of(request).readCookieValues(request);
    }

    private DefaultCookieSerializer of(HttpServletRequest request) {
        return request.isSecure() ? secure : plain;
    }
}
