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
            new WorkerProperties(10_000, 3, 2_000, 1_000, 5_000, 5, 30_000, 300_000, 8, 256);

    private static PushToWorker pusher(WorkerAddresses addresses) {
        WorkerRegistry registry = new WorkerRegistry(null, null, PROPERTIES, addresses, Clock.systemUTC()) {
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
}
