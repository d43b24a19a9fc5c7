package io.axscheduler.deploy.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.axscheduler.testing.SettableClock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ReadWhenNeededTest {

    @Test
    void a_failed_read_is_tried_again_only_after_the_retry_interval_and_a_good_one_is_kept() {
        SettableClock clock = new SettableClock("2026-12-03T08:00:00Z");
        AtomicInteger reads = new AtomicInteger();
        ReadWhenNeeded<String> document = new ReadWhenNeeded<>(
                "a test document",
                () -> {
                    if (reads.incrementAndGet() == 1) throw new IllegalStateException("provider down");
                    return "discovered";
                },
                clock,
                Duration.ofSeconds(10));

        assertThat(document.known()).isEmpty();
        assertThat(document.get()).isEmpty();
        clock.advance(Duration.ofSeconds(9));
        assertThat(document.get()).as("within the retry interval").isEmpty();
        assertThat(reads).hasValue(1);

        clock.advance(Duration.ofSeconds(1));
        assertThat(document.get()).hasValue("discovered");
        assertThat(document.get()).hasValue("discovered");
        assertThat(document.known()).hasValue("discovered");
        assertThat(reads).as("read once more, then kept").hasValue(2);
    }
}
