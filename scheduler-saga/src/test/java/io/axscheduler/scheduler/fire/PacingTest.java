package io.axscheduler.scheduler.fire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PacingTest {

    /** hold-back-after-ms 3,000: a paced type keeps 1.5 s of its jobs' claim rate waiting. */
    private final Pacing pacing = new Pacing(3_000, 600);

    /** Each type's jobs waiting to be claimed, as the next pass counts them. */
    private final Map<String, Long> waiting = new HashMap<>();

    private Map<String, Long> pass(Set<String> late, long atMs) {
        return pacing.budgets(late, type -> waiting.getOrDefault(type, 0L), atMs);
    }

    /** {@code type} falls behind at time 0 with {@code count} jobs waiting: its first paced pass. */
    private Map<String, Long> fallsBehind(String type, long count) {
        waiting.put(type, count);
        return pass(Set.of(type), 0);
    }

    @Test
    void a_type_that_falls_behind_makes_nothing_until_a_rate_is_known() {
        assertThat(fallsBehind("bill", 5_000L)).containsExactly(Map.entry("bill", 0L));
    }

    @Test
    void a_paced_type_is_topped_up_to_half_the_bound_at_the_rate_its_jobs_are_taken() {
        fallsBehind("bill", 1_000L);
        // 800 taken in a second: 0.8 a ms, 1.5 s of that is 1,200 waiting; 200 wait, so 1,000 more
        waiting.put("bill", 200L);
        assertThat(pass(Set.of("bill"), 1_000)).containsEntry("bill", 1_000L);
        // this node made those 1,000; 900 were taken in the next second (1,100 left): the rate averages to 0.85 a
        // ms, 1,275 should wait, so 175 more
        pacing.made("bill", 1_000);
        waiting.put("bill", 300L);
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
        // its last job was claimed between the two reads of the pass
        assertThat(fallsBehind("bill", 0L)).containsExactly(Map.entry("bill", 1L));
        // nothing taken, nothing made: still a job a pass, until one shows a rate or the type catches up
        assertThat(pass(Set.of("bill"), 1_000)).containsExactly(Map.entry("bill", 1L));
    }

    @Test
    void passes_close_together_add_to_one_sample() {
        fallsBehind("bill", 1_000L);
        waiting.put("bill", 990L);
        assertThat(pass(Set.of("bill"), 20)).containsEntry("bill", 0L); // no rate from 20 ms
        pacing.made("bill", 100);
        waiting.put("bill", 300L);
        // 1,000 + 100 made - 300 = 800 taken over the second since the last sample: 0.8 a ms, 1,200 should wait
        assertThat(pass(Set.of("bill"), 1_000)).containsEntry("bill", 900L);
    }

    @Test
    void more_waiting_than_the_rate_takes_in_half_the_bound_makes_nothing() {
        fallsBehind("bill", 10_000L);
        waiting.put("bill", 9_800L); // 0.2 a ms: 300 should wait
        assertThat(pass(Set.of("bill"), 1_000)).containsEntry("bill", 0L);
    }

    @Test
    void another_nodes_fires_count_as_less_taken() {
        fallsBehind("bill", 1_000L);
        waiting.put("bill", 1_500L); // grew: another node made jobs of it, none seen taken
        assertThat(pass(Set.of("bill"), 1_000)).containsEntry("bill", 0L);
    }

    @Test
    void a_paced_type_stays_paced_until_a_pass_fires_all_it_has_due() {
        fallsBehind("bill", 1_000L);
        waiting.put("bill", 400L);
        // its head no longer waits beyond the bound, but it has not caught up: still paced
        assertThat(pass(Set.of(), 1_000)).containsKey("bill");
        waiting.put("bill", 0L);
        assertThat(pass(Set.of(), 2_000)).containsKey("bill");
        pacing.caughtUp("bill");
        assertThat(pass(Set.of(), 3_000)).isEmpty();
        // behind again later: starts over, without the old rate
        waiting.put("bill", 700L);
        assertThat(pass(Set.of("bill"), 4_000)).containsExactly(Map.entry("bill", 0L));
    }

    @Test
    void a_type_still_behind_does_not_catch_up() {
        fallsBehind("bill", 1_000L);
        // none of its schedules is due, but its oldest job waited past the bound at this pass
        assertThat(pacing.caughtUp("bill")).isFalse();
        assertThat(pacing.types()).containsExactly("bill");
        waiting.put("bill", 400L);
        pass(Set.of(), 1_000);
        assertThat(pacing.caughtUp("bill")).isTrue();
        assertThat(pacing.types()).isEmpty();
    }

    @Test
    void a_queue_that_ran_dry_counts_what_was_taken_double() {
        fallsBehind("bill", 100L);
        // all 100 taken in a second and nothing waits: the nodes may take more than 0.1 a ms, so 0.2 counts; 1.5 s of
        // that is 300
        waiting.put("bill", 0L);
        assertThat(pass(Set.of("bill"), 1_000)).containsEntry("bill", 300L);
        // made 300, all taken again: 0.6 counts, averaged with 0.2 to 0.4 a ms, 600
        pacing.made("bill", 300);
        assertThat(pass(Set.of("bill"), 2_000)).containsEntry("bill", 600L);
    }

    @Test
    void types_are_paced_each_on_their_own() {
        waiting.put("bill", 1_000L);
        waiting.put("sync", 1_000L);
        pass(Set.of("bill", "sync"), 0);
        waiting.put("bill", 0L);
        waiting.put("sync", 900L);
        Map<String, Long> budgets = pass(Set.of("sync"), 1_000);
        assertThat(budgets.get("sync")).isZero(); // 0.1 a ms: 150 should wait
        assertThat(budgets.get("bill")).isEqualTo(3_000L); // 1 a ms, doubled for a dry queue: 3,000 should wait
    }
}
