package io.axscheduler.scheduler.remote;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.axscheduler.testing.SettableClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class RateLimitedLogTest {

    private final SettableClock clock = new SettableClock("2026-11-30T10:00:00.000Z");
    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
    private RateLimitedLog log;

    @BeforeEach
    void setUp() {
        Logger logger = (Logger) LoggerFactory.getLogger(RateLimitedLogTest.class.getName() + ".refusals");
        lines.start();
        logger.addAppender(lines);
        log = new RateLimitedLog(logger, 2, 60_000, clock);
    }

    private List<String> written() {
        return lines.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }

    @Test
    void lines_beyond_the_limit_of_a_window_are_left_out() {
        for (int i = 1; i <= 5; i++) log.warn("refused {}", i);

        assertThat(written()).containsExactly("refused 1", "refused 2");
    }

    @Test
    void the_window_ends_by_the_injected_clock_and_the_next_one_says_how_many_were_left_out() {
        for (int i = 1; i <= 5; i++) log.warn("refused {}", i);
        clock.advance(Duration.ofSeconds(59));
        log.warn("refused {}", 6);

        assertThat(written()).containsExactly("refused 1", "refused 2");

        clock.advance(Duration.ofSeconds(1));
        log.warn("refused {}", 7);

        assertThat(written()).containsExactly("refused 1", "refused 2", "4 more such lines were left out", "refused 7");
    }
}
