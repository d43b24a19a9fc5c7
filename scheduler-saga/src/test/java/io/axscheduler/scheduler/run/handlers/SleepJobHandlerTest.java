package io.axscheduler.scheduler.run.handlers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class SleepJobHandlerTest {

    private static final long MAX_SLEEP_MS = 10_000;

    private final SleepJobHandler handler = new SleepJobHandler(MAX_SLEEP_MS);

    private static TestJobContext sleeping(Object ms) {
        return new TestJobContext("sleep", 1, ms == null ? Map.of() : Map.of("ms", ms));
    }

    @Test
    void its_type_is_sleep() {
        assertThat(handler.jobType()).isEqualTo("sleep");
    }

    @Test
    @Timeout(5)
    void it_returns_after_the_given_milliseconds() throws Exception {
        long start = System.nanoTime();

        String result = handler.execute(sleeping(150));

        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(150);
        assertThat(result).isEqualTo("slept 150 ms");
    }

    @Test
    @Timeout(5)
    void without_ms_it_sleeps_one_second() throws Exception {
        long start = System.nanoTime();

        assertThat(handler.execute(sleeping(null))).isEqualTo("slept 1000 ms");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(1_000);
    }

    @Test
    @Timeout(5)
    void zero_ms_returns_at_once() throws Exception {
        assertThat(handler.execute(sleeping(0))).isEqualTo("slept 0 ms");
    }

    @Test
    @Timeout(5)
    void it_stops_early_and_fails_when_the_attempt_is_cancelled() {
        TestJobContext context = sleeping(MAX_SLEEP_MS);
        long start = System.nanoTime();
        CompletableFuture.delayedExecutor(100, TimeUnit.MILLISECONDS).execute(context::cancel);

        assertThatThrownBy(() -> handler.execute(context))
                .isInstanceOf(InterruptedException.class)
                .hasMessageContaining("cancelled");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(3_000);
    }

    @Test
    @Timeout(5)
    void an_attempt_cancelled_before_it_began_does_not_sleep_at_all() {
        TestJobContext context = sleeping(MAX_SLEEP_MS);
        context.cancel();

        assertThatThrownBy(() -> handler.execute(context)).isInstanceOf(InterruptedException.class);
    }

    @Test
    void a_sleep_longer_than_the_maximum_is_refused() {
        assertThatThrownBy(() -> handler.execute(sleeping(MAX_SLEEP_MS + 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("params.ms")
                .hasMessageContaining(String.valueOf(MAX_SLEEP_MS));
    }

    @Test
    void a_negative_sleep_is_refused() {
        assertThatThrownBy(() -> handler.execute(sleeping(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("params.ms");
    }

    @Test
    void ms_that_is_not_a_number_is_refused() {
        assertThatThrownBy(() -> handler.execute(sleeping("soon")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("params.ms");
    }
}
