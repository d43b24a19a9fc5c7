package io.axscheduler.worker;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PushEndpointTest {

    @Test
    void a_push_read_after_the_scheduler_stopped_waiting_for_its_answer_is_given_up() {
        assertThat(PushEndpoint.givenUp(2_000, 1_900)).isFalse();
        // within the allowance for the two hosts' clocks it is still run
        assertThat(PushEndpoint.givenUp(2_000, 2_000 + PushEndpoint.CLOCK_SKEW_MS))
                .isFalse();
        assertThat(PushEndpoint.givenUp(2_000, 2_001 + PushEndpoint.CLOCK_SKEW_MS))
                .isTrue();
        assertThat(PushEndpoint.givenUp(2_000, 45_000)).isTrue();
        // an earlier scheduler says nothing of its wait: nothing is judged
        assertThat(PushEndpoint.givenUp(PushEndpoint.answerWithin(null), 45_000))
                .isFalse();
        assertThat(PushEndpoint.answerWithin(" 6000 ")).isEqualTo(6_000);
        assertThat(PushEndpoint.answerWithin("soon")).isZero();
        assertThat(PushEndpoint.answerWithin("-5")).isZero();
    }
}
