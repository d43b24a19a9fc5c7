package io.axscheduler.scheduler.remote;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.axscheduler.api.worker.PushedJob;
import io.axscheduler.scheduler.net.RebindingHosts;
import io.axscheduler.scheduler.remote.route.Candidate;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Pushes over real HTTP to servers on this machine, under a resolver the test controls. */
class PushToWorkerTest {

    private static final WorkerProperties PROPERTIES =
            new WorkerProperties(10_000, 3, 2_000, 1_000, 5_000, 5, 30_000, 300_000, 8, 256, 86_400_000);

    private static PushToWorker pusher(WorkerAddresses addresses) {
        WorkerRegistry registry = new WorkerRegistry(null, null, PROPERTIES, addresses, null, Clock.systemUTC()) {
            @Override
            public Optional<String> secretOf(String workerId) {
                return Optional.of("a-worker-secret");
            }
        };
        return new PushToWorker(new ObjectMapper(), PROPERTIES, addresses, registry, Clock.systemUTC());
    }

    private static PushedJob job() {
        return new PushedJob("job-1", 1, "echo", "job-1#1", Map.of(), 10_000, 0, 1);
    }

    @Test
    void a_worker_name_that_resolves_elsewhere_after_the_check_is_not_pushed_to() throws Exception {
        try (RebindingHosts hosts = new RebindingHosts("{\"state\":\"ACCEPTED\"}")) {
            PushToWorker push = pusher(new WorkerAddresses(hosts.policy(WorkerAddresses.SETTING)));
            Candidate worker = new Candidate("w-1", "http://localhost:" + hosts.port, Set.of("echo"), 4, 0, 0, 0, 0);

            PushToWorker.Result result = push.push(worker, job());

            assertThat(hosts.reboundHosts)
                    .as("requests that reached 127.0.0.1 or ::1")
                    .isEmpty();
            assertThat(result).isEqualTo(PushToWorker.Result.FAILED);
        }
    }

    @Test
    void a_push_the_allow_list_refuses_says_so_for_the_explain() throws Exception {
        WorkerAddresses addresses = new WorkerAddresses(io.axscheduler.scheduler.net.AddressPolicy.of(
                WorkerAddresses.SETTING, java.util.List.of("10.0.0.0/8"), host ->
                        new java.net.InetAddress[] {java.net.InetAddress.getByName("127.0.0.1")}));
        Candidate worker = new Candidate("w-1", "http://127.0.0.1:9", Set.of("echo"), 4, 0, 0, 0, 0);
        java.util.List<String> why = new java.util.ArrayList<>();

        assertThat(pusher(addresses).push(worker, job(), why::add)).isEqualTo(PushToWorker.Result.FAILED);
        assertThat(why)
                .singleElement()
                .asString()
                .contains("not pushed: its address")
                .contains("not allowed by");
    }

    @Test
    void a_push_goes_to_the_checked_address_with_the_workers_host_name() throws Exception {
        try (RebindingHosts hosts = new RebindingHosts("{\"state\":\"ACCEPTED\"}")) {
            WorkerAddresses addresses = new WorkerAddresses(io.axscheduler.scheduler.net.AddressPolicy.of(
                    WorkerAddresses.SETTING, java.util.List.of("localhost", "127.0.0.2/32"), host ->
                            new java.net.InetAddress[] {java.net.InetAddress.getByName("127.0.0.2")}));
            Candidate worker = new Candidate("w-1", "http://localhost:" + hosts.port, Set.of("echo"), 4, 0, 0, 0, 0);

            assertThat(pusher(addresses).push(worker, job())).isEqualTo(PushToWorker.Result.ACCEPTED);
            assertThat(hosts.checkedHosts).containsExactly("localhost:" + hosts.port);
            assertThat(hosts.reboundHosts).isEmpty();
        }
    }

    /**
     * A worker on 127.0.0.1 that reads each push whole and then does what {@code answers} says for that request, in
     * order: "drop" closes the connection without a word, "hang" never answers, anything else is the JSON it answers.
     */
    private static final class ScriptedWorker implements AutoCloseable {
        final java.net.ServerSocket server =
                new java.net.ServerSocket(0, 50, java.net.InetAddress.getByName("127.0.0.1"));
        final java.util.List<String> answers;
        final java.util.concurrent.atomic.AtomicInteger requests = new java.util.concurrent.atomic.AtomicInteger();
        final java.util.List<java.net.Socket> held = new java.util.concurrent.CopyOnWriteArrayList<>();

        ScriptedWorker(String... answers) throws java.io.IOException {
            this.answers = java.util.List.of(answers);
            Thread t = new Thread(this::serve, "scripted-worker");
            t.setDaemon(true);
            t.start();
        }

        Candidate candidate() {
            return new Candidate("w-1", "http://127.0.0.1:" + server.getLocalPort(), Set.of("echo"), 4, 0, 0, 0, 0);
        }

        private void serve() {
            while (!server.isClosed()) {
                try {
                    java.net.Socket socket = server.accept();
                    java.io.InputStream in = socket.getInputStream();
                    int length = 0;
                    StringBuilder line = new StringBuilder();
                    for (int c = in.read(); c != -1; c = in.read()) {
                        if (c == '\r') continue;
                        if (c != '\n') {
                            line.append((char) c);
                            continue;
                        }
                        if (line.isEmpty()) break;
                        String header = line.toString().toLowerCase(java.util.Locale.ROOT);
                        if (header.startsWith("content-length:"))
                            length = Integer.parseInt(header.substring(15).trim());
                        line.setLength(0);
                    }
                    in.readNBytes(length);
                    String answer = answers.get(Math.min(requests.getAndIncrement(), answers.size() - 1));
                    if (answer.equals("drop")) {
                        socket.close();
                    } else if (answer.equals("hang")) {
                        held.add(socket);
                    } else {
                        socket.getOutputStream()
                                .write(("HTTP/1.1 202 Accepted\r\nContent-Type: application/json\r\nContent-Length: "
                                                + answer.length() + "\r\nConnection: close\r\n\r\n" + answer)
                                        .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                        socket.close();
                    }
                } catch (java.io.IOException closed) {
                    return;
                }
            }
        }

        @Override
        public void close() throws java.io.IOException {
            server.close();
            for (java.net.Socket socket : held) socket.close();
        }
    }

    private static PushToWorker pusherToLoopback() {
        return pusher(new WorkerAddresses(io.axscheduler.scheduler.net.AddressPolicy.of(
                WorkerAddresses.SETTING, java.util.List.of("127.0.0.1/32"))));
    }

    @Test
    void a_push_whose_answer_was_lost_is_asked_again_of_the_same_worker() throws Exception {
        try (ScriptedWorker worker = new ScriptedWorker("drop", "{\"state\":\"RUNNING\"}")) {
            assertThat(pusherToLoopback().push(worker.candidate(), job())).isEqualTo(PushToWorker.Result.ACCEPTED);
            assertThat(worker.requests).hasValue(2);
        }
    }

    @Test
    void a_push_lost_twice_fails() throws Exception {
        try (ScriptedWorker worker = new ScriptedWorker("drop", "drop", "{\"state\":\"ACCEPTED\"}")) {
            assertThat(pusherToLoopback().push(worker.candidate(), job())).isEqualTo(PushToWorker.Result.FAILED);
            assertThat(worker.requests).hasValue(2);
        }
    }

    @Test
    void a_push_without_an_answer_in_time_or_with_one_that_is_not_json_is_not_asked_again() throws Exception {
        PushedJob quick = new PushedJob("job-1", 1, "echo", "job-1#1", Map.of(), 600, 0, 1); // answer within 300 ms
        try (ScriptedWorker worker = new ScriptedWorker("hang", "{\"state\":\"ACCEPTED\"}")) {
            assertThat(pusherToLoopback().push(worker.candidate(), quick)).isEqualTo(PushToWorker.Result.FAILED);
            Thread.sleep(100);
            assertThat(worker.requests).hasValue(1);
        }
        try (ScriptedWorker worker = new ScriptedWorker("not json", "{\"state\":\"ACCEPTED\"}")) {
            assertThat(pusherToLoopback().push(worker.candidate(), job())).isEqualTo(PushToWorker.Result.FAILED);
            assertThat(worker.requests).hasValue(1);
        }
    }
}
