package io.axscheduler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.axscheduler.scheduler.net.HostResolver;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * DNS rebinding against a whole node: its {@link HostResolver} bean answers {@code localhost} first with 127.0.0.2
 * (the only address the allow-list admits) and then with 127.0.0.1, where another server listens on the same port —
 * as the system's own lookup of {@code localhost} would answer. An {@code http} job must reach the first.
 */
class DnsRebindingIT {

    static final List<HttpServer> servers = new ArrayList<>();
    static final Queue<String> reached = new ConcurrentLinkedQueue<>();
    static final AtomicInteger lookups = new AtomicInteger();
    static int port;
    static Node node;

    @BeforeAll
    static void start() throws IOException {
        // a port free on 127.0.0.2 may be taken on 127.0.0.1 (a node, a database of another test): try another
        for (int attempt = 1; ; attempt++) {
            port = serve(InetAddress.getByName("127.0.0.2"), 0, "checked");
            try {
                serve(InetAddress.getByName("127.0.0.1"), port, "rebound");
                break;
            } catch (java.net.BindException taken) {
                servers.remove(servers.size() - 1).stop(0);
                if (attempt == 10) throw taken;
            }
        }
        try {
            serve(InetAddress.getByName("::1"), port, "rebound");
        } catch (IOException noIpv6) {
            // then the system's lookup of localhost can only answer 127.0.0.1
        }
        HostResolver rebinding = host -> {
            if (!host.equals("localhost")) throw new UnknownHostException(host);
            return new InetAddress[] {InetAddress.getByName(lookups.getAndIncrement() == 0 ? "127.0.0.2" : "127.0.0.1")
            };
        };
        node = Node.start(
                TestDatabase.freshDatabase("dns_rebinding"),
                "rebinding",
                Map.of("ax.scheduler.jobs.http-allowed-hosts", "localhost,127.0.0.2/32"),
                context -> context.getBeanFactory().registerSingleton("testHostResolver", rebinding));
    }

    static int serve(InetAddress address, int port, String name) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(address, port), 0);
        server.createContext("/", exchange -> {
            reached.add(name + " " + exchange.getRequestHeaders().getFirst("Host"));
            byte[] body = name.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        servers.add(server);
        return server.getAddress().getPort();
    }

    @AfterAll
    static void stop() {
        if (node != null) node.close();
        servers.forEach(s -> s.stop(0));
    }

    @Test
    void an_http_job_reaches_the_address_its_host_was_checked_at() {
        String jobId = node.api.submit(
                "{\"jobType\":\"http\",\"maxRetries\":0,\"params\":{\"url\":\"http://localhost:" + port + "/hook\"}}");

        JsonNode job = node.api.awaitStatus(jobId, "SUCCEEDED");

        assertThat(job.path("result").asText()).isEqualTo("HTTP 200 checked");
        assertThat(reached).containsExactly("checked localhost:" + port);
        assertThat(lookups)
                .as("one lookup, through the node's HostResolver bean")
                .hasValue(1);
    }
}
