package io.axscheduler.scheduler.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.axscheduler.scheduler.remote.route.Candidate;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RemoteLanesTest {

    /** The registry's answer, without a database: the lanes' arithmetic is what is tested here. */
    private static RemoteLanes lanesOf(WorkerRegistry.Registered... workers) {
        return new RemoteLanes(new WorkerRegistry(null, null, null, null, null, null) {
            @Override
            public List<Registered> available() {
                return List.of(workers);
            }
        });
    }

    private static WorkerRegistry.Registered worker(String id, String app, String namespace, int free) {
        return new WorkerRegistry.Registered(
                app, new Candidate(id, "http://w", Set.of("report"), free, 0, 0, 0, 0), 0, 0, namespace);
    }

    @Test
    void workers_of_one_app_in_two_namespaces_make_a_lane_each_with_its_own_slots() {
        RemoteLanes lanes = lanesOf(worker("a1", "billing", "team-a", 2), worker("b1", "billing", "team-b", 3));

        assertThat(lanes.free(type -> true))
                .containsExactlyInAnyOrder(
                        new RemoteLanes.Lane("report", "billing", "team-a", 2),
                        new RemoteLanes.Lane("report", "billing", "team-b", 3));
    }

    @Test
    void jobs_bound_to_no_app_get_the_slots_of_their_own_namespace_only() {
        RemoteLanes lanes = lanesOf(worker("a1", "billing", "team-a", 2), worker("a2", "mail", "team-a", 1));

        assertThat(lanes.free(type -> false))
                .contains(new RemoteLanes.Lane("report", null, "team-a", 3))
                .noneMatch(lane -> lane.namespace().equals("team-b"));
    }

    @Test
    void a_push_on_its_way_takes_a_slot_of_its_namespace_only() {
        RemoteLanes lanes = lanesOf(worker("a1", "billing", "team-a", 1), worker("b1", "billing", "team-b", 1));
        lanes.pushStarted("report", "billing", "team-a");

        assertThat(lanes.free(type -> true)).containsExactly(new RemoteLanes.Lane("report", "billing", "team-b", 1));
    }
}
