package io.axscheduler.scheduler.net;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A DNS-rebinding set-up on this machine: a server at 127.0.0.2 (the address the resolver answers first, and the
 * only one a policy of {@code localhost, 127.0.0.2/32} admits) and servers on the same port at 127.0.0.1 and ::1 (what
 * the resolver answers afterwards, and what the system's own lookup of {@code localhost} answers). Each server
 * answers with its name and keeps the Host header of every request it got.
 */
public final class RebindingHosts implements AutoCloseable {

    public static final String CHECKED = "checked";
    public static final String REBOUND = "rebound";

    public final int port;
    public final Queue<String> checkedHosts = new ConcurrentLinkedQueue<>();
    public final Queue<String> reboundHosts = new ConcurrentLinkedQueue<>();
    public final AtomicInteger lookups = new AtomicInteger();
    private final List<HttpServer> servers = new ArrayList<>();

    public RebindingHosts(String answer) throws IOException {
        HttpServer checked = server(InetAddress.getByName("127.0.0.2"), 0, CHECKED, checkedHosts, answer);
        port = checked.getAddress().getPort();
        server(InetAddress.getByName("127.0.0.1"), port, REBOUND, reboundHosts, answer);
        try {
            server(InetAddress.getByName("::1"), port, REBOUND, reboundHosts, answer);
        } catch (IOException noIpv6) {
            // without IPv6 loopback the system's lookup of localhost can only answer 127.0.0.1
        }
    }

    /** First 127.0.0.2, then 127.0.0.1 for every later lookup. */
    public HostResolver resolver() {
        return host -> {
            if (!host.equals("localhost")) throw new UnknownHostException(host);
            return new InetAddress[] {InetAddress.getByName(lookups.getAndIncrement() == 0 ? "127.0.0.2" : "127.0.0.1")
            };
        };
    }

    public AddressPolicy policy(String setting) {
        return AddressPolicy.of(setting, List.of("localhost", "127.0.0.2/32"), resolver());
    }

    private HttpServer server(InetAddress address, int port, String name, Queue<String> hosts, String answer)
            throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(address, port), 0);
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            hosts.add(exchange.getRequestHeaders().getFirst("Host"));
            byte[] body = (answer == null ? name : answer).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        servers.add(server);
        return server;
    }

    @Override
    public void close() {
        servers.forEach(s -> s.stop(0));
    }
}
