package io.axscheduler.api.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BackoffTest {

    @ParameterizedTest(name = "retry {0} waits {1} ms")
    @CsvSource({"1, 1000", "2, 2000", "3, 4000", "4, 8000", "5, 16000"})
    void exponential_delay_multiplies_with_each_retry(int retry, long expectedMs) {
        Backoff backoff = Backoff.exponential(1_000, 2.0, 300_000);

        assertThat(backoff.delayBeforeRetry(retry)).isEqualTo(expectedMs);
    }

    @ParameterizedTest(name = "retry {0} waits {1} ms")
    @CsvSource({"1, 1000", "2, 3000", "3, 9000", "4, 10000", "5, 10000", "50, 10000", "10000, 10000"})
    void exponential_delay_stops_growing_at_max_ms(int retry, long expectedMs) {
        Backoff backoff = Backoff.exponential(1_000, 3.0, 10_000);

        assertThat(backoff.delayBeforeRetry(retry)).isEqualTo(expectedMs);
    }

    @Test
    void a_multiplier_of_one_keeps_the_delay_constant() {
        Backoff backoff = Backoff.exponential(750, 1.0, 10_000);

        assertThat(List.of(backoff.delayBeforeRetry(1), backoff.delayBeforeRetry(2), backoff.delayBeforeRetry(9)))
                .containsOnly(750L);
    }

    @Test
    void a_fractional_multiplier_grows_the_delay_by_that_fraction() {
        Backoff backoff = Backoff.exponential(1_000, 1.5, 100_000);

        assertThat(backoff.delayBeforeRetry(2)).isEqualTo(1_500);
        assertThat(backoff.delayBeforeRetry(3)).isEqualTo(2_250);
    }

    @ParameterizedTest(name = "retry {0} waits {1} ms")
    @CsvSource({"1, 100", "2, 500", "3, 2000", "4, 2000", "100, 2000"})
    void explicit_delays_are_used_in_order_and_the_last_one_repeats(int retry, long expectedMs) {
        Backoff backoff = Backoff.delays(List.of(100L, 500L, 2_000L));

        assertThat(backoff.delayBeforeRetry(retry)).isEqualTo(expectedMs);
    }

    @Test
    void a_single_explicit_delay_applies_to_every_retry() {
        Backoff backoff = Backoff.delays(List.of(42L));

        assertThat(backoff.delayBeforeRetry(1)).isEqualTo(42);
        assertThat(backoff.delayBeforeRetry(7)).isEqualTo(42);
    }

    @Test
    void zero_delays_are_allowed() {
        assertThat(Backoff.delays(List.of(0L)).delayBeforeRetry(3)).isZero();
        assertThat(Backoff.exponential(0, 2.0, 0).delayBeforeRetry(3)).isZero();
    }

    @Test
    void defaults_are_one_second_doubling_up_to_five_minutes() {
        Backoff backoff = Backoff.defaults();

        assertThat(backoff.initialMs()).isEqualTo(1_000);
        assertThat(backoff.multiplier()).isEqualTo(2.0);
        assertThat(backoff.maxMs()).isEqualTo(300_000);
        assertThat(backoff.delaysMs()).isNull();
    }

    @Test
    void an_empty_backoff_is_the_default_one() {
        assertThat(new Backoff(null, null, null, null)).isEqualTo(Backoff.defaults());
    }

    @Test
    void omitted_exponential_parts_take_their_defaults() {
        Backoff backoff = new Backoff(5_000L, null, null, null);

        assertThat(backoff.multiplier()).isEqualTo(Backoff.DEFAULT_MULTIPLIER);
        assertThat(backoff.maxMs()).isEqualTo(Backoff.DEFAULT_MAX_MS);
    }

    @Test
    void an_initial_delay_above_the_default_cap_raises_the_default_cap_to_it() {
        Backoff backoff = new Backoff(600_000L, null, null, null);

        assertThat(backoff.maxMs()).isEqualTo(600_000);
        assertThat(backoff.delayBeforeRetry(1)).isEqualTo(600_000);
    }

    @Test
    void retry_numbers_start_at_one() {
        assertThatThrownBy(() -> Backoff.defaults().delayBeforeRetry(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Backoff.delays(List.of(1L)).delayBeforeRetry(0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void explicit_delays_are_copied_so_the_caller_cannot_change_them_later() {
        List<Long> delays = new ArrayList<>(List.of(100L, 200L));
        Backoff backoff = Backoff.delays(delays);

        delays.set(0, 9_999L);

        assertThat(backoff.delayBeforeRetry(1)).isEqualTo(100);
        assertThatThrownBy(() -> backoff.delaysMs().add(1L)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void negative_explicit_delays_are_refused() {
        assertThatThrownBy(() -> Backoff.delays(List.of(100L, -1L)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("negative");
    }

    @Test
    void a_missing_explicit_delay_is_refused() {
        assertThatThrownBy(() -> Backoff.delays(Arrays.asList(100L, null)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void both_shapes_at_once_are_refused() {
        List<Long> delays = List.of(100L);

        assertThatThrownBy(() -> new Backoff(1_000L, null, null, delays))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not both");
        assertThatThrownBy(() -> new Backoff(null, 2.0, null, delays))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not both");
        assertThatThrownBy(() -> new Backoff(null, null, 5_000L, delays))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not both");
    }

    @Test
    void an_empty_delay_list_is_refused() {
        assertThatThrownBy(() -> Backoff.delays(List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 to " + Backoff.MAX_DELAYS);
    }

    @Test
    void a_delay_list_longer_than_the_bound_is_refused_and_one_at_the_bound_is_accepted() {
        assertThat(Backoff.delays(Collections.nCopies(Backoff.MAX_DELAYS, 1L)).delaysMs())
                .hasSize(Backoff.MAX_DELAYS);
        assertThatThrownBy(() -> Backoff.delays(Collections.nCopies(Backoff.MAX_DELAYS + 1, 1L)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void a_multiplier_below_one_is_refused() {
        assertThatThrownBy(() -> Backoff.exponential(1_000, 0.99, 10_000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("multiplier");
    }

    @Test
    void a_multiplier_above_one_hundred_is_refused() {
        assertThat(Backoff.exponential(1, 100.0, 10_000).multiplier()).isEqualTo(100.0);
        assertThatThrownBy(() -> Backoff.exponential(1, 100.01, 10_000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("multiplier");
    }

    @Test
    void a_multiplier_that_is_not_a_number_is_refused() {
        assertThatThrownBy(() -> Backoff.exponential(1_000, Double.NaN, 10_000))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void a_negative_initial_delay_is_refused() {
        assertThatThrownBy(() -> Backoff.exponential(-1, 2.0, 10_000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("initialMs");
    }

    @Test
    void a_cap_below_the_initial_delay_is_refused() {
        assertThat(Backoff.exponential(5_000, 2.0, 5_000).delayBeforeRetry(3)).isEqualTo(5_000);
        assertThatThrownBy(() -> Backoff.exponential(5_000, 2.0, 4_999))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxMs");
    }
}
