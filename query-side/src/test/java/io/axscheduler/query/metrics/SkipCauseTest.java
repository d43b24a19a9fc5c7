package io.axscheduler.query.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The reasons the fire scan writes name their policy; the cause is read from that name. */
class SkipCauseTest {

    @Test
    void overlap_reasons_are_overlap_and_misfire_reasons_are_misfire() {
        assertThat(SkipCause.of("previous job j-1 is still RUNNING; overlap policy SKIP_IF_RUNNING"))
                .isEqualTo(SkipCause.OVERLAP);
        assertThat(SkipCause.of("a fire is already queued behind job j-1 (RUNNING); overlap policy QUEUE holds one"))
                .isEqualTo(SkipCause.OVERLAP);
        assertThat(SkipCause.of("3 fire times missed since 2026-01-01T00:00:00Z; misfire policy SKIP"))
                .isEqualTo(SkipCause.MISFIRE);
    }
}
