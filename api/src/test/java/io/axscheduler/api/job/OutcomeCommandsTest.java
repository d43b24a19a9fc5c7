package io.axscheduler.api.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.axscheduler.api.TextLimit;
import org.junit.jupiter.api.Test;

/** An attempt's result or error is cut to its column's size by the command, whoever reports the outcome. */
class OutcomeCommandsTest {

    private static final String LONG = "x".repeat(TextLimit.MAX_CHARS + 500);

    @Test
    void a_long_result_or_error_is_cut_and_a_short_or_missing_one_kept() {
        assertThat(new SucceedJob("job-1", 1, LONG, 5).result()).hasSize(TextLimit.MAX_CHARS);
        assertThat(new FailJob("job-1", 1, LONG, 5).error()).hasSize(TextLimit.MAX_CHARS);
        assertThat(new SucceedJob("job-1", 1, "done", 5).result()).isEqualTo("done");
        assertThat(new SucceedJob("job-1", 1, null, 5).result()).isNull();
        assertThat(new FailJob("job-1", 1, "boom", 5).error()).isEqualTo("boom");
    }
}
