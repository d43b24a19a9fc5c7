package io.axscheduler.scheduler.run.handlers;

import io.axscheduler.api.spi.JobContext;
import io.axscheduler.api.spi.JobHandler;
import io.axscheduler.scheduler.net.AddressPolicy;
import io.axscheduler.scheduler.net.PinnedHttp;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpTimeoutException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * {@code http}: calls {@code params.url} with {@code params.method} (GET by default) and {@code params.body}. Only URLs
 * the allow-list admits are called, checked on the resolved address and again at every redirect — a scheduler that
 * calls any URL a client names is an open proxy into the network it sits in. The connection goes to the address that
 * was checked ({@link PinnedHttp}), never to a second lookup's answer. Any final status outside 2xx fails the
 * attempt. The idempotency key goes along as a header. The whole call, redirects and body included, ends within the
 * read timeout, and at most {@code maxResponseBytes} of the body are read.
 */
public class HttpJobHandler implements JobHandler {

    static final Set<String> METHODS = Set.of("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD");
    static final int MAX_RESULT = 500;
    static final String SETTING = io.axscheduler.scheduler.SchedulerProperties.Jobs.HTTP_ALLOWED_HOSTS;
    /** Open connections kept for http jobs; each job type's pool bounds how many calls run at once. */
    static final int MAX_CONNECTIONS = 50;

    private final AddressPolicy policy;
    private final long readTimeoutMs;
    private final int maxResponseBytes;
    private final int maxRedirects;
    private final PinnedHttp client;

    public HttpJobHandler(List<String> allowedHosts, long connectTimeoutMs, long readTimeoutMs) {
        this(AddressPolicy.of(SETTING, allowedHosts), connectTimeoutMs, readTimeoutMs, 1 << 20, 5);
    }

    public HttpJobHandler(
            AddressPolicy policy, long connectTimeoutMs, long readTimeoutMs, int maxResponseBytes, int maxRedirects) {
        this.policy = policy;
        this.readTimeoutMs = readTimeoutMs;
        this.maxResponseBytes = maxResponseBytes;
        this.maxRedirects = maxRedirects;
        this.client = new PinnedHttp(policy, connectTimeoutMs, MAX_CONNECTIONS);
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
                else {
                    try {
                        policy.checkName(uri);
                    } catch (AddressPolicy.Refused refused) {
                        problems.put("url", refused.getMessage());
                    }
                }
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
        URI url;
        try {
            url = URI.create(context.stringParam("url", ""));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("params.url must be an absolute http(s) URL");
        }
        if (url.getHost() == null || !("http".equals(url.getScheme()) || "https".equals(url.getScheme()))) {
            throw new IllegalArgumentException("params.url must be an absolute http(s) URL");
        }
        String method = context.stringParam("method", "GET").toUpperCase(Locale.ROOT);
        if (!METHODS.contains(method)) {
            throw new IllegalArgumentException("params.method must be one of " + METHODS);
        }
        String body = context.stringParam("body", null);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(readTimeoutMs);
        for (int hop = 0; ; hop++) {
            policy.checkName(url);
            long remainingMs = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (remainingMs <= 0) throw new HttpTimeoutException("request timed out");
            PinnedHttp.Answer response = client.send(
                    method,
                    url,
                    Map.of("Idempotency-Key", context.idempotencyKey(), "X-Ax-Job-Id", context.jobId()),
                    body,
                    maxResponseBytes,
                    remainingMs);
            int status = response.status();
            String location = response.location();
            if (status / 100 == 3 && status != 304 && location != null) {
                if (hop >= maxRedirects)
                    throw new IllegalStateException("HTTP " + status + " after " + hop + " redirects");
                url = url.resolve(location);
                if (status != 307 && status != 308 && !method.equals("HEAD")) {
                    method = "GET";
                    body = null;
                }
                continue;
            }
            String summary = "HTTP " + status + " " + abbreviate(response.text());
            if (status / 100 != 2) throw new IllegalStateException(summary);
            return summary;
        }
    }

    private static String abbreviate(String body) {
        if (body == null) return "";
        return body.length() <= MAX_RESULT ? body : body.substring(0, MAX_RESULT) + "…";
    }
}
