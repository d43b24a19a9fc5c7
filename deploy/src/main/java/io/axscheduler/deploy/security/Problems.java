package io.axscheduler.deploy.security;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/** 401 and 403 as application/problem+json, saying no more than that. */
final class Problems {

    private final ObjectMapper json;

    Problems(ObjectMapper json) {
        this.json = json;
    }

    void unauthorized(HttpServletResponse response) throws IOException {
        response.setHeader("WWW-Authenticate", "Bearer");
        write(response, 401, "Unauthorized", "missing, unknown, expired or revoked credentials");
    }

    void forbidden(HttpServletResponse response) throws IOException {
        forbidden(response, null);
    }

    /** 403 saying why, when {@code why} is not null. */
    void forbidden(HttpServletResponse response, String why) throws IOException {
        write(response, 403, "Forbidden", why == null ? "the credentials do not allow this" : why);
    }

    /** A write riding on the console's session cookie without the session's CSRF token: not a matter of roles. */
    void csrf(HttpServletResponse response) throws IOException {
        write(
                response,
                403,
                "Forbidden",
                "missing or wrong CSRF token: a request on the console's session sends the token of its pages"
                        + " (header X-CSRF-TOKEN or field _csrf); an API client sends a bearer token instead");
    }

    /** 400 naming one field (a header, a query parameter) and why, as the controllers' refusals do. */
    void invalid(HttpServletResponse response, String field, String message) throws IOException {
        write(response, 400, "Invalid request", field + ": " + message, Map.of("field", field, "message", message));
    }

    void unavailable(HttpServletResponse response) throws IOException {
        response.setHeader("Retry-After", "5");
        write(response, 503, "Service unavailable", "the database is unreachable; nothing was written, try again");
    }

    void write(HttpServletResponse response, int status, String title, String detail) throws IOException {
        write(response, status, title, detail, null);
    }

    private void write(HttpServletResponse response, int status, String title, String detail, Map<String, String> error)
            throws IOException {
        if (response.isCommitted()) return;
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", "about:blank");
        body.put("title", title);
        body.put("status", status);
        body.put("detail", detail);
        // as the controllers' problems name theirs: the path asked for (filters run inside RequestContextFilter)
        if (RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes request)
            body.put("instance", request.getRequest().getRequestURI());
        if (error != null) body.put("errors", java.util.List.of(error));
        response.setStatus(status);
        response.setContentType("application/problem+json");
        json.writeValue(response.getOutputStream(), body);
    }
}
