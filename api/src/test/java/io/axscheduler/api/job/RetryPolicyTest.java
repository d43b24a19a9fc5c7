package io.axscheduler.api.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RetryPolicyTest {

    @ParameterizedTest(name = "maxRetries {0}")
    @ValueSource(ints = {-1, -100, RetryPolicy.MAX_RETRIES_LIMIT + 1, Integer.MAX_VALUE})
    void max_retries_outside_zero_to_the_limit_are_refused(int maxRetries) {
        assertThatThrownBy(() -> new RetryPolicy(maxRetries, Backoff.defaults()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxRetries");
    }

    @ParameterizedTest(name = "maxRetries {0}")
    @ValueSource(ints = {0, 1, RetryPolicy.MAX_RETRIES_LIMIT})
    void max_retries_from_zero_to_the_limit_are_accepted(int maxRetries) {
        assertThat(new RetryPolicy(maxRetries, Backoff.defaults()).maxRetries()).isEqualTo(maxRetries);
    }

    @ParameterizedTest(name = "attempt {0} may be retried: {1}")
    @CsvSource({"1, true", "2, true", "3, true", "4, false", "5, false"})
    void with_three_retries_the_first_three_attempts_may_be_retried_and_the_fourth_is_the_last(
            int attempt, boolean allowed) {
        RetryPolicy policy = new RetryPolicy(3, Backoff.defaults());

        assertThat(policy.allowsRetryAfter(attempt)).isEqualTo(allowed);
    }

    @Test
    void with_zero_retries_the_first_attempt_is_the_last() {
        assertThat(new RetryPolicy(0, Backoff.defaults()).allowsRetryAfter(1)).isFalse();
    }

    @Test
    void with_the_limit_of_retries_the_attempt_after_the_limit_is_the_last() {
        RetryPolicy policy = new RetryPolicy(RetryPolicy.MAX_RETRIES_LIMIT, Backoff.defaults());

        assertThat(policy.allowsRetryAfter(RetryPolicy.MAX_RETRIES_LIMIT)).isTrue();
        assertThat(policy.allowsRetryAfter(RetryPolicy.MAX_RETRIES_LIMIT + 1)).isFalse();
    }

    @Test
    void defaults_are_three_retries_with_the_default_backoff() {
        RetryPolicy policy = RetryPolicy.defaults();

        assertThat(policy.maxRetries()).isEqualTo(3);
        assertThat(policy.backoff()).isEqualTo(Backoff.defaults());
    }

    @Test
    void a_missing_backoff_becomes_the_default_backoff() {
        assertThat(new RetryPolicy(5, null).backoff()).isEqualTo(Backoff.defaults());
    }

    @Test
    void the_delay_after_an_attempt_is_the_backoff_before_the_retry_of_the_same_number() {
        RetryPolicy policy = new RetryPolicy(5, Backoff.delays(List.of(10L, 20L, 30L)));

        assertThat(policy.delayAfterAttempt(1)).isEqualTo(10);
        assertThat(policy.delayAfterAttempt(2)).isEqualTo(20);
        assertThat(policy.delayAfterAttempt(3)).isEqualTo(30);
        assertThat(policy.delayAfterAttempt(4)).isEqualTo(30);
    }
}
