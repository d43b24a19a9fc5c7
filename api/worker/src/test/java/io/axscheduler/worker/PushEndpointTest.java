package io.axscheduler.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.axscheduler.api.worker.PushedJob;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PushEndpointTest {

    private static PushedJob push(long answerWithinMs) {
        return new PushedJob("j", 1, "echo", "j", Map.of(), 30_000, 0, 1).answeredWithin(answerWithinMs);
    }

    @Test
    void a_push_read_after_the_scheduler_stopped_waiting_for_its_answer_is_given_up() {
        assertThat(PushEndpoint.givenUp(push(2_000), 1_900)).isFalse();
        // within the allowance for the two hosts' clocks it is still run
        assertThat(PushEndpoint.givenUp(push(2_000), 2_000 + PushEndpoint.CLOCK_SKEW_MS))
                .isFalse();
        assertThat(PushEndpoint.givenUp(push(2_000), 2_001 + PushEndpoint.CLOCK_SKEW_MS))
                .isTrue();
        assertThat(PushEndpoint.givenUp(push(2_000), 45_000)).isTrue();
        // an older scheduler says nothing of its wait: nothing is judged
        assertThat(PushEndpoint.givenUp(push(0), 45_000)).isFalse();
    }
}
