package io.axscheduler.deploy;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

/**
 * The 503 of an unreachable database as a page, for a browser on the console or the sign-in form: the API's
 * problem+json shown raw is no answer for a person. Self-contained (no stylesheet, no template): while the database
 * is away a request for the console's assets fails too when it carries the session cookie. A page asked for by GET
 * loads itself again after the Retry-After time.
 */
final class OutagePage {

    private OutagePage() {}

    /**
     * A browser asking for a page of the console, the sign-in form (its provider's callback too) or the sign-out; API
     * clients, bearer tokens and scrapes keep JSON.
     */
    static boolean wanted(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        boolean page = path.equals("/console")
                || path.startsWith("/console/")
                || path.equals("/login")
                || path.startsWith("/login/")
                || path.equals("/logout");
        String accept = request.getHeader(HttpHeaders.ACCEPT);
        return page
                && request.getHeader(HttpHeaders.AUTHORIZATION) == null
                && accept != null
                && accept.contains(MediaType.TEXT_HTML_VALUE);
    }

    static void write(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.resetBuffer();
        response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
        response.setHeader(HttpHeaders.RETRY_AFTER, String.valueOf(ProblemHandlers.RETRY_AFTER_S));
        response.setContentType(MediaType.TEXT_HTML_VALUE + ";charset=UTF-8");
        byte[] page = html(request).getBytes(StandardCharsets.UTF_8);
        try {
            response.getOutputStream().write(page);
        } catch (IllegalStateException writerTaken) {
            // a page that failed while being rendered has taken the writer: the stream is no longer to be had
            response.getWriter().write(html(request));
        }
    }

    private static String html(HttpServletRequest request) {
        boolean get = "GET".equals(request.getMethod());
        String refresh = get ? "<meta http-equiv=\"refresh\" content=\"" + ProblemHandlers.RETRY_AFTER_S + "\">\n" : "";
        String again = get
                ? "This page loads itself again in " + ProblemHandlers.RETRY_AFTER_S + " seconds."
                : "Go back and send it again in a few seconds.";
        return """
                <!DOCTYPE html>
                <html lang="en">
                <head>
                <meta charset="utf-8">
                <title>ax-scheduler · database unreachable</title>
                %s<style>
                body { font-family: system-ui, sans-serif; margin: 4rem auto; max-width: 40rem; color: #1f2933; }
                .badge { background: #b42318; color: #fff; border-radius: .3rem; padding: .1rem .5rem; }
                </style>
                </head>
                <body>
                <h1><span class="badge" data-testid="error-status">503</span> The database is unreachable</h1>
                <p data-testid="error-detail">This node cannot reach its database just now, so nothing was read or
                written. Jobs that are running keep running; their outcomes are recorded when the database is back.</p>
                <p>%s</p>
                <p><a href="%s/console">Back to the overview</a></p>
                </body>
                </html>
                """.formatted(refresh, again, request.getContextPath());
    }
}
