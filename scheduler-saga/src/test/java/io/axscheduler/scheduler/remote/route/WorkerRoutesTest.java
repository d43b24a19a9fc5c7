package io.axscheduler.scheduler.remote.route;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class WorkerRoutesTest {

    private static final RouteRequest ANY = new RouteRequest("echo@demo", "job-1");

    private static Candidate worker(
            String id, int capacity, int inFlight, long lastUsed, int failures, long registeredAt) {
        return new Candidate(id, "http://" + id, Set.of("echo"), capacity, inFlight, lastUsed, failures, registeredAt);
    }

    private static final Candidate A = worker("a", 4, 0, 300, 0, 1);
    private static final Candidate B = worker("b", 4, 0, 100, 0, 2);
    private static final Candidate C = worker("c", 4, 0, 200, 0, 3);
    private static final List<Candidate> ABC = List.of(A, B, C);

    private static List<String> ids(List<Candidate> workers) {
        return workers.stream().map(Candidate::workerId).toList();
    }

    @Test
    void first_always_puts_the_earliest_registered_worker_first_and_the_others_behind() {
        FirstRoute route = new FirstRoute();
        assertThat(ids(route.order(ABC, ANY))).containsExactly("a", "b", "c");
        assertThat(ids(route.order(ABC, new RouteRequest("echo@demo", "other"))))
                .containsExactly("a", "b", "c");
    }

    @Test
    void round_robin_starts_one_worker_further_along_for_each_job_of_a_lane() {
        RoundRobinRoute route = new RoundRobinRoute();
        assertThat(ids(route.order(ABC, ANY))).containsExactly("a", "b", "c");
        assertThat(ids(route.order(ABC, ANY))).containsExactly("b", "c", "a");
        assertThat(ids(route.order(ABC, ANY))).containsExactly("c", "a", "b");
        assertThat(ids(route.order(ABC, ANY))).containsExactly("a", "b", "c");
    }

    @Test
    void round_robin_keeps_a_separate_turn_per_lane() {
        RoundRobinRoute route = new RoundRobinRoute();
        route.order(ABC, ANY);
        assertThat(ids(route.order(ABC, new RouteRequest("sleep@demo", "x")))).startsWith("a");
        assertThat(ids(route.order(ABC, ANY))).startsWith("b");
    }

    @Test
    void random_picks_every_worker_first_about_equally_and_always_lists_all() {
        RandomRoute route = new RandomRoute(() -> new Random(42));
        RandomRoute seeded = new RandomRoute(new java.util.function.Supplier<>() {
            final Random random = new Random(7);

            public Random get() {
                return random;
            }
        });
        assertThat(ids(route.order(ABC, ANY))).containsExactlyInAnyOrder("a", "b", "c");
        Map<String, Integer> firsts = new HashMap<>();
        IntStream.range(0, 3000)
                .forEach(i -> firsts.merge(seeded.order(ABC, ANY).get(0).workerId(), 1, Integer::sum));
        assertThat(firsts.values()).allSatisfy(n -> assertThat(n).isBetween(850, 1150));
    }

    @Test
    void consistent_hash_sends_one_key_to_one_worker_every_time() {
        ConsistentHashRoute route = new ConsistentHashRoute();
        for (int i = 0; i < 50; i++) {
            RouteRequest request = new RouteRequest("echo@demo", "order-" + i);
            assertThat(route.order(ABC, request)).isEqualTo(route.order(List.of(C, A, B), request));
            assertThat(route.order(ABC, request)).hasSize(3).doesNotHaveDuplicates();
        }
    }

    @Test
    void consistent_hash_moves_only_the_keys_of_a_worker_that_leaves() {
        ConsistentHashRoute route = new ConsistentHashRoute();
        int moved = 0;
        Map<String, Integer> spread = new HashMap<>();
        for (int i = 0; i < 3000; i++) {
            RouteRequest request = new RouteRequest("echo@demo", "order-" + i);
            String before = route.order(ABC, request).get(0).workerId();
            String after = route.order(List.of(A, C), request).get(0).workerId();
            spread.merge(before, 1, Integer::sum);
            if (!before.equals(after)) {
                moved++;
                assertThat(before).isEqualTo("b");
            }
        }
        assertThat(moved).isEqualTo(spread.get("b"));
        assertThat(spread.values()).allSatisfy(n -> assertThat(n).isBetween(700, 1300));
    }

    @Test
    void least_recently_used_puts_the_worker_idle_longest_first() {
        assertThat(ids(new LeastRecentlyUsedRoute().order(ABC, ANY))).containsExactly("b", "c", "a");
    }

    @Test
    void least_loaded_compares_the_share_of_capacity_in_use() {
        Candidate busySmall = worker("small", 2, 1, 0, 0, 1); // 50 %
        Candidate busyLarge = worker("large", 10, 3, 0, 0, 2); // 30 %
        Candidate idle = worker("idle", 1, 0, 0, 0, 3); // 0 %
        Candidate full = worker("full", 4, 4, 0, 0, 4); // 100 %
        assertThat(ids(new LeastLoadedRoute().order(List.of(busySmall, busyLarge, idle, full), ANY)))
                .containsExactly("idle", "large", "small", "full");
    }

    @Test
    void least_loaded_breaks_a_tie_by_free_slots() {
        Candidate small = worker("small", 2, 0, 0, 0, 1);
        Candidate large = worker("large", 8, 0, 0, 0, 2);
        assertThat(ids(new LeastLoadedRoute().order(List.of(small, large), ANY)))
                .containsExactly("large", "small");
    }

    @Test
    void failover_keeps_registration_order_but_puts_failing_workers_behind_healthy_ones() {
        Candidate failingA = worker("a", 4, 0, 0, 2, 1);
        Candidate failingB = worker("b", 4, 0, 0, 1, 2);
        assertThat(ids(new FailoverRoute().order(List.of(failingA, failingB, C), ANY)))
                .containsExactly("c", "b", "a");
        assertThat(ids(new FailoverRoute().order(ABC, ANY))).containsExactly("a", "b", "c");
    }

    @Test
    void sharding_broadcast_lists_every_worker_in_registration_order() {
        List<Candidate> order = new ShardingBroadcastRoute().order(ABC, ANY);
        assertThat(ids(order)).containsExactly("a", "b", "c");
        assertThat(new ArrayList<>(order))
                .isEqualTo(new ShardingBroadcastRoute().order(ABC, new RouteRequest("x", "y")));
    }

    @Test
    void every_strategy_has_a_route() {
        WorkerRoutes routes = new WorkerRoutes();
        for (io.axscheduler.api.job.RouteStrategy strategy : io.axscheduler.api.job.RouteStrategy.values()) {
            assertThat(routes.of(strategy).order(ABC, ANY)).hasSize(3).doesNotHaveDuplicates();
        }
    }
}
