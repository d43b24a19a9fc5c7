package io.axscheduler.scheduler.net;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.util.Timeout;

/**
 * An HTTP client for calls made on someone else's behalf, connecting only to addresses the {@link AddressPolicy}
 * checked: a connection resolves its host once, through {@link AddressPolicy#resolveChecked}, and connects to exactly
 * those addresses — there is no second lookup that could answer with another address (DNS rebinding). The request
 * still names the host, so the Host header, TLS SNI and the certificate check are the name's. No redirects are
 * followed here (the caller checks each hop), nothing is retried, and no cookies are kept.
 */
public final class PinnedHttp implements AutoCloseable {

    /** A response: status, Location header (null if none) and at most the body's first {@code maxBytes} bytes. */
    public record Answer(int status, String location, byte[] body) {
        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private static final ScheduledExecutorService DEADLINES = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "ax-http-deadlines");
        thread.setDaemon(true);
        return thread;
    });

    private final CloseableHttpClient client;

    public PinnedHttp(AddressPolicy policy, long connectTimeoutMs, int maxConnections) {
        DnsResolver pinned = new DnsResolver() {
            @Override
            public InetAddress[] resolve(String host) throws UnknownHostException {
                return policy.resolveChecked(host);
            }

            @Override
            public String resolveCanonicalHostname(String host) {
                return host;
            }
        };
        this.client = HttpClients.custom()
                .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
                        .setDnsResolver(pinned)
                        .setMaxConnTotal(maxConnections)
                        .setMaxConnPerRoute(maxConnections)
                        .setDefaultConnectionConfig(ConnectionConfig.custom()
                                .setConnectTimeout(Timeout.ofMilliseconds(connectTimeoutMs))
                                .build())
                        .build())
                .disableRedirectHandling()
                .disableAutomaticRetries()
                .disableCookieManagement()
                .disableContentCompression()
                .disableAuthCaching()
                .build();
    }

    /**
     * One request, all of it (connecting, sending, reading the body) within {@code timeoutMs}; past it the call is
     * aborted with {@link HttpTimeoutException}. A {@link AddressPolicy.Refused} from the connection's resolution is
     * thrown as is, before anything is sent.
     */
    public Answer send(String method, URI url, Map<String, String> headers, String body, int maxBytes, long timeoutMs)
            throws IOException {
        if (timeoutMs <= 0) throw new HttpTimeoutException("request timed out");
        HttpUriRequestBase request = new HttpUriRequestBase(method, url);
        headers.forEach(request::setHeader);
        if (body != null) request.setEntity(new ByteArrayEntity(body.getBytes(StandardCharsets.UTF_8), null));
        Timeout timeout = Timeout.ofMilliseconds(timeoutMs);
        request.setConfig(RequestConfig.custom()
                .setResponseTimeout(timeout)
                .setConnectionRequestTimeout(timeout)
                .build());
        // marked before the cancel closes the socket: the reading thread may see the close before the task returns
        AtomicBoolean expired = new AtomicBoolean();
        ScheduledFuture<?> abort = DEADLINES.schedule(
                () -> {
                    expired.set(true);
                    request.cancel();
                },
                timeoutMs,
                TimeUnit.MILLISECONDS);
        try (ClassicHttpResponse response = client.executeOpen(null, request, null)) {
            HttpEntity entity = response.getEntity();
            byte[] bytes;
            if (entity == null) {
                bytes = new byte[0];
            } else {
                try (InputStream in = entity.getContent()) {
                    bytes = in.readNBytes(maxBytes);
                    // the rest is not read: the connection is dropped rather than drained
                    if (bytes.length == maxBytes) request.cancel();
                }
            }
            Header location = response.getFirstHeader("Location");
            return new Answer(response.getCode(), location == null ? null : location.getValue(), bytes);
        } catch (IOException e) {
            if (expired.get() || e instanceof SocketTimeoutException) {
                HttpTimeoutException timedOut = new HttpTimeoutException("request timed out");
                timedOut.initCause(e);
                throw timedOut;
            }
            throw e;
        } finally {
            abort.cancel(false);
        }
    }

    @Override
    public void close() throws IOException {
        client.close();
    }
}
