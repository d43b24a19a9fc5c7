package io.axscheduler.worker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Clock;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A worker told of several nodes: a call goes on to the next when one is unreachable or unavailable. */
class SchedulerClientTest {

    private final List<HttpServer> servers = new java.util.ArrayList<>();
    private final Queue<String> heard = new ConcurrentLinkedQueue<>();

    @AfterEach
    void stop() {
        servers.forEach(s -> s.stop(0));
    }

    private String node(String name, int status) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            heard.add(name);
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
        servers.add(server);
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private static String closedPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return "http://127.0.0.1:" + socket.getLocalPort();
        }
    }

    private static SchedulerClient client(String urls) {
        return new SchedulerClient(
                new AxWorkerProperties(urls, "app", null, 2, 1000, 2000, 0, 100, 60_000, null, "default"),
                new ObjectMapper(),
                Clock.systemUTC());
    }

    @Test
    void an_unreachable_or_unavailable_node_passes_the_call_on_and_the_answering_one_is_asked_first_after()
            throws Exception {
        String down = closedPort();
        String busy = node("busy", 503);
        String up = node("up", 200);
        SchedulerClient client = client(down + ", " + busy + "/ ," + up);

        assertThat(client.heartbeat("w1", 0).status()).isEqualTo(200);
        assertThat(heard).containsExactly("busy", "up");
        heard.clear();
        assertThat(client.heartbeat("w1", 0).status()).isEqualTo(200);
        assertThat(heard).as("the node that answered is asked first").containsExactly("up");
    }

    @Test
    void a_refusal_is_an_answer_and_goes_to_no_other_node() throws Exception {
        String refuses = node("refuses", 401);
        String up = node("up", 200);
        assertThat(client(refuses + "," + up).heartbeat("w1", 0).status()).isEqualTo(401);
        assertThat(heard).containsExactly("refuses");
    }

    @Test
    void with_every_node_away_the_last_answer_says_so() throws Exception {
        SchedulerClient.Answer answer =
                client(closedPort() + "," + closedPort()).heartbeat("w1", 0);
        assertThat(answer.status()).isZero();
        assertThat(SchedulerClient.unavailable(answer)).isTrue();
    }
}
