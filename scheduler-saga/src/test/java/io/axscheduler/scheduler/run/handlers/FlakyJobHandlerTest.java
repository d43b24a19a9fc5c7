package io.axscheduler.scheduler.run.handlers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FlakyJobHandlerTest {

    private final FlakyJobHandler handler = new FlakyJobHandler();

    private static TestJobContext attempt(int attempt, Map<String, Object> params) {
        return new TestJobContext("flaky", attempt, params);
    }

    @Test
    void its_type_is_flaky() {
        assertThat(handler.jobType()).isEqualTo("flaky");
    }

    @ParameterizedTest(name = "attempt {0}")
    @ValueSource(ints = {1, 2, 3})
    void attempts_up_to_fail_times_fail(int attempt) {
        assertThatThrownBy(() -> handler.execute(attempt(attempt, Map.of("failTimes", 3))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("planned failure " + attempt + " of 3");
    }

    @ParameterizedTest(name = "attempt {0}")
    @ValueSource(ints = {4, 5})
    void attempts_after_fail_times_succeed(int attempt) {
        assertThat(handler.execute(attempt(attempt, Map.of("failTimes", 3))))
                .isEqualTo("succeeded on attempt " + attempt);
    }

    @Test
    void without_fail_times_only_the_first_attempt_fails() {
        assertThatThrownBy(() -> handler.execute(attempt(1, Map.of()))).isInstanceOf(IllegalStateException.class);
        assertThat(handler.execute(attempt(2, Map.of()))).isEqualTo("succeeded on attempt 2");
    }

    @Test
    void zero_fail_times_succeeds_at_once() {
        assertThat(handler.execute(attempt(1, Map.of("failTimes", 0)))).isEqualTo("succeeded on attempt 1");
    }

    @Test
    void fail_times_given_as_text_is_read_as_a_number() {
        assertThatThrownBy(() -> handler.execute(attempt(2, Map.of("failTimes", " 2 "))))
                .isInstanceOf(IllegalStateException.class);
        assertThat(handler.execute(attempt(3, Map.of("failTimes", "2")))).isEqualTo("succeeded on attempt 3");
    }

    @Test
    void fail_times_that_is_not_a_number_is_refused_naming_the_param() {
        assertThatThrownBy(() -> handler.execute(attempt(1, Map.of("failTimes", "many"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("params.failTimes");
    }
}
