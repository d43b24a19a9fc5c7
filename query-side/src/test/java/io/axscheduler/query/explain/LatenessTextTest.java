package io.axscheduler.query.explain;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How late a fire was, as the schedule's answer words it (it printed Java's PT6M23.733S before). */
class LatenessTextTest {

    @Test
    void a_lateness_is_said_in_the_largest_units_that_fit() {
        assertThat(ExplainSchedule.late(850)).isEqualTo("850 ms");
        assertThat(ExplainSchedule.late(12_400)).isEqualTo("12.4 s");
        assertThat(ExplainSchedule.late(383_733)).isEqualTo("6 min 23.7 s");
        assertThat(ExplainSchedule.late(2 * 3_600_000 + 5 * 60_000 + 999)).isEqualTo("2 h 5 min");
        // rounded before it is split: never "60.0 s"
        assertThat(ExplainSchedule.late(59_960)).isEqualTo("1 min 0.0 s");
        assertThat(ExplainSchedule.late(119_970)).isEqualTo("2 min 0.0 s");
        assertThat(ExplainSchedule.late(3_599_999)).isEqualTo("1 h 0 min");
    }
}
