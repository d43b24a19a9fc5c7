package io.axscheduler.scheduler.claim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class DrainedLanesTest {

    private static final DrainedLanes.Lane LANE = new DrainedLanes.Lane("report", "executor_app IS NULL", Map.of());
    private static final DrainedLanes.Lane MAIL = new DrainedLanes.Lane("mail", "executor_app IS NULL", Map.of());
    private static final Map<DrainedLanes.Lane, Boolean> SHORT = Map.of(LANE, true);

    private final DrainedLanes lanes = new DrainedLanes();

    @Test
    void a_lane_that_came_back_short_is_quiet_until_the_tick() {
        lanes.afterPass(SHORT, 1_000, 1_800);

        assertThat(lanes.isQuiet(LANE, 1_799)).isTrue();
        assertThat(lanes.isQuiet(LANE, 1_800)).isFalse();
    }

    @Test
    void a_lane_that_came_back_full_is_never_quiet() {
        lanes.afterPass(SHORT, 1_000, 1_800);
        lanes.afterPass(Map.of(LANE, false), 1_100, 1_900);

        assertThat(lanes.isQuiet(LANE, 1_100)).isFalse();
    }

    @Test
    void work_expected_before_a_pass_and_due_after_it_began_bounds_the_quiet_spell() {
        // made at 500 for 1,200; a pass at 1,000 finds the lane short: it must be queried again at 1,200, not 1,800
        lanes.expect("report", 1_200, 500);
        lanes.afterPass(SHORT, 1_000, 1_800);

        assertThat(lanes.isQuiet(LANE, 1_199)).isTrue();
        assertThat(lanes.isQuiet(LANE, 1_200)).isFalse();
    }

    @Test
    void work_due_now_made_while_a_pass_ran_keeps_the_lane_in() {
        // its row may have committed after the pass's query: the pass's verdict cannot cover it
        lanes.expect("report", 0, 1_010);
        lanes.afterPass(SHORT, 1_000, 1_800);

        assertThat(lanes.isQuiet(LANE, 1_010)).isFalse();
    }

    @Test
    void work_the_pass_has_seen_does_not_shorten_the_quiet_spell() {
        lanes.expect("report", 900, 500);
        lanes.afterPass(SHORT, 1_000, 1_800);
        lanes.afterPass(SHORT, 1_000, 1_800);

        assertThat(lanes.isQuiet(LANE, 1_500)).isTrue();
    }

    @Test
    void work_expected_after_the_pass_lowers_the_quiet_spell_of_its_type_only() {
        lanes.afterPass(Map.of(LANE, true, MAIL, true), 1_000, 1_800);

        lanes.expect("report", 1_300, 1_100);

        assertThat(lanes.isQuiet(LANE, 1_300)).isFalse();
        assertThat(lanes.isQuiet(MAIL, 1_300)).isTrue();
    }

    @Test
    void a_retry_of_unknown_type_bounds_every_lane() {
        lanes.expect(null, 1_400, 600);
        lanes.afterPass(SHORT, 1_000, 1_800);

        assertThat(lanes.isQuiet(LANE, 1_400)).isFalse();
    }
}
