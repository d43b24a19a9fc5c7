package io.axscheduler.scheduler.run.handlers;

import io.axscheduler.api.spi.JobContext;
import io.axscheduler.api.spi.JobHandler;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code http}: calls {@code params.url} with {@code params.method} (GET by default) and {@code params.body}. Only
 * hosts on the allow-list are called — a scheduler that calls any URL a client names is an open proxy into the
 * network it sits in. Any status outside 2xx fails the attempt. The idempotency key goes along as a header.
 */
public class HttpJobHandler implements JobHandler {

    static final Set<String> METHODS = Set.of("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD");
    static final int MAX_RESULT = 500;

    private final List<String> allowedHosts;
    private final Duration readTimeout;
    private final HttpClient client;

    public HttpJobHandler(List<String> allowedHosts, long connectTimeoutMs, long readTimeoutMs) {
        this.allowedHosts =
                allowedHosts.stream().map(h -> h.toLowerCase(Locale.ROOT)).toList();
        this.readTimeout = Duration.ofMillis(readTimeoutMs);
        this.client = HttpClient.newBuilder()
                .connectTimeout(Duration.ofMillis(connectTimeoutMs))
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    @Override
    public String jobType() {
        return "http";
    }

    /** The url, method and body a run would refuse, refused at submit instead. */
    @Override
    public Map<String, String> paramProblems(Map<String, Object> params) {
        Map<String, String> problems = new LinkedHashMap<>();
        Object url = params.get("url");
        if (!(url instanceof String text) || text.isBlank()) {
            problems.put("url", "is required: an absolute http(s) URL as a string");
        } else {
            try {
                URI uri = new URI(text);
                if (uri.getHost() == null || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())))
                    problems.put("url", "must be an absolute http(s) URL");
                else if (!allowedHosts.contains(uri.getHost().toLowerCase(Locale.ROOT)))
                    problems.put("url", "host " + uri.getHost() + " is not on ax.scheduler.jobs.http-allowed-hosts");
            } catch (URISyntaxException e) {
                problems.put("url", "is not a URL: " + e.getReason());
            }
        }
        Object method = params.get("method");
        if (method != null && (!(method instanceof String m) || !METHODS.contains(m.toUpperCase(Locale.ROOT))))
            problems.put("method", "must be one of " + METHODS);
        Object body = params.get("body");
        if (body != null && !(body instanceof String)) problems.put("body", "must be a string");
        return problems;
    }

    @Override
    public String execute(JobContext context) throws Exception {
        URI url = URI.create(context.stringParam("url", ""));
        if (url.getHost() == null || !("http".equals(url.getScheme()) || "https".equals(url.getScheme()))) {
            throw new IllegalArgumentException("params.url must be an absolute http(s) URL");
        }
        if (!allowedHosts.contains(url.getHost().toLowerCase(Locale.ROOT))) {
            throw new SecurityException("host " + url.getHost() + " is not on ax.scheduler.jobs.http-allowed-hosts");
        }
        String method = context.stringParam("method", "GET").toUpperCase(Locale.ROOT);
        if (!METHODS.contains(method)) {
            throw new IllegalArgumentException("params.method must be one of " + METHODS);
        }
        String body = context.stringParam("body", null);
        HttpRequest request = HttpRequest.newBuilder(url)
                .timeout(readTimeout)
                .header("Idempotency-Key", context.idempotencyKey())
                .header("X-Ax-Job-Id", context.jobId())
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build();
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        String summary = "HTTP " + response.statusCode() + " " + abbreviate(response.body());
        if (response.statusCode() / 100 != 2) {
            throw new IllegalStateException(summary);
        }
        return summary;
    }

    private static String abbreviate(String body) {
        if (body == null) return "";
        return body.length() <= MAX_RESULT ? body : body.substring(0, MAX_RESULT) + "…";
    }
}
