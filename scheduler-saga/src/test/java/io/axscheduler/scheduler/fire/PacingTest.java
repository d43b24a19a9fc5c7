package io.axscheduler.scheduler.fire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PacingTest {

    /** hold-back-after-ms 3,000: a paced type keeps 1.5 s of its jobs' claim rate waiting. */
    private final Pacing pacing = new Pacing(3_000, 600);

    private final Map<String, Long> due = new HashMap<>();

    private Map<String, Long> pass(Set<String> late, long atMs) {
        return pacing.budgets(late, type -> due.getOrDefault(type, 0L), atMs);
    }

    @Test
    void a_type_that_falls_behind_makes_nothing_until_a_rate_is_known() {
        due.put("bill", 5_000L);
        assertThat(pass(Set.of("bill"), 0)).containsExactly(Map.entry("bill", 0L));
    }

    @Test
    void a_paced_type_is_topped_up_to_half_the_bound_at_the_rate_its_jobs_are_taken() {
        due.put("bill", 1_000L);
        pass(Set.of("bill"), 0);
        // 800 taken in a second: 0.8 a ms, 1.5 s of that is 1,200 waiting; 200 wait, so 1,000 more
        due.put("bill", 200L);
        assertThat(pass(Set.of("bill"), 1_000)).containsEntry("bill", 1_000L);
        // this node made those 1,000; 900 were taken in the next second (1,100 left): the rate averages to 0.85 a
        // ms, 1,275 should wait, so 175 more
        pacing.made("bill", 1_000);
        due.put("bill", 300L);
        assertThat(pass(Set.of("bill"), 2_000)).containsEntry("bill", 1_275L - 300L);
    }

    @Test
    void a_short_bound_keeps_two_passes_of_work_waiting() {
        Pacing shortBound = new Pacing(1_000, 600);
        shortBound.budgets(Set.of("bill"), type -> 1_000L, 0);
        // 0.8 a ms: half the bound would be 400, less than two passes (1,200 ms) take: 960 should wait
        assertThat(shortBound.budgets(Set.of("bill"), type -> 200L, 1_000)).containsEntry("bill", 760L);
    }

    @Test
    void a_dry_queue_always_gets_a_job_so_a_paced_type_never_stalls() {
        due.put("bill", 0L); // its last job was claimed between the two reads of the pass
        assertThat(pass(Set.of("bill"), 0)).containsExactly(Map.entry("bill", 1L));
        // nothing taken, nothing made: still a job a pass, until one shows a rate or the type catches up
        assertThat(pass(Set.of("bill"), 1_000)).containsExactly(Map.entry("bill", 1L));
    }

    @Test
    void passes_close_together_add_to_one_sample() {
        due.put("bill", 1_000L);
        pass(Set.of("bill"), 0);
        due.put("bill", 990L);
        assertThat(pass(Set.of("bill"), 20)).containsEntry("bill", 0L); // no rate from 20 ms
        pacing.made("bill", 100);
        due.put("bill", 300L);
        // 1,000 + 100 made - 300 = 800 taken over the second since the last sample: 0.8 a ms, 1,200 should wait
        assertThat(pass(Set.of("bill"), 1_000)).containsEntry("bill", 900L);
    }

    @Test
    void more_waiting_than_the_rate_takes_in_half_the_bound_makes_nothing() {
        due.put("bill", 10_000L);
        pass(Set.of("bill"), 0);
        due.put("bill", 9_800L); // 0.2 a ms: 300 should wait
        assertThat(pass(Set.of("bill"), 1_000)).containsEntry("bill", 0L);
    }

    @Test
    void another_nodes_fires_count_as_less_taken() {
        due.put("bill", 1_000L);
        pass(Set.of("bill"), 0);
        due.put("bill", 1_500L); // grew: another node made jobs of it, none seen taken
        assertThat(pass(Set.of("bill"), 1_000)).containsEntry("bill", 0L);
    }

    @Test
    void a_paced_type_stays_paced_until_a_pass_fires_all_it_has_due() {
        due.put("bill", 1_000L);
        pass(Set.of("bill"), 0);
        due.put("bill", 400L);
        // its head no longer waits beyond the bound, but it has not caught up: still paced
        assertThat(pass(Set.of(), 1_000)).containsKey("bill");
        due.put("bill", 0L);
        assertThat(pass(Set.of(), 2_000)).containsKey("bill");
        pacing.caughtUp("bill");
        assertThat(pass(Set.of(), 3_000)).isEmpty();
        // behind again later: starts over, without the old rate
        due.put("bill", 700L);
        assertThat(pass(Set.of("bill"), 4_000)).containsExactly(Map.entry("bill", 0L));
    }

    @Test
    void a_queue_that_ran_dry_counts_what_was_taken_double() {
        due.put("bill", 100L);
        pass(Set.of("bill"), 0);
        // all 100 taken in a second and nothing waits: the nodes may take more than 0.1 a ms, so 0.2 counts; 1.5 s of
        // that is 300
        due.put("bill", 0L);
        assertThat(pass(Set.of("bill"), 1_000)).containsEntry("bill", 300L);
        // made 300, all taken again: 0.6 counts, averaged with 0.2 to 0.4 a ms, 600
        pacing.made("bill", 300);
        assertThat(pass(Set.of("bill"), 2_000)).containsEntry("bill", 600L);
    }

    @Test
    void types_are_paced_each_on_their_own() {
        due.put("bill", 1_000L);
        due.put("sync", 1_000L);
        pass(Set.of("bill", "sync"), 0);
        due.put("bill", 0L);
        due.put("sync", 900L);
        Map<String, Long> budgets = pass(Set.of("sync"), 1_000);
        assertThat(budgets.get("sync")).isZero(); // 0.1 a ms: 150 should wait
        assertThat(budgets.get("bill")).isEqualTo(3_000L); // 1 a ms, doubled for a dry queue: 3,000 should wait
    }
}
