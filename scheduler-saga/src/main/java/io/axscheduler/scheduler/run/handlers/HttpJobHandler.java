package io.axscheduler.scheduler.run.handlers;

import io.axscheduler.api.spi.JobContext;
import io.axscheduler.api.spi.JobHandler;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
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
