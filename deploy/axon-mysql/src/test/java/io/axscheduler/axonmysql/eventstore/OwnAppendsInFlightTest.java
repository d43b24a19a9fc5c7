package io.axscheduler.axonmysql.eventstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class OwnAppendsInFlightTest {

    private final AtomicLong nanos = new AtomicLong();
    private final OwnAppendsInFlight held = new OwnAppendsInFlight(1_000, nanos::get);

    @Test
    void the_lowest_held_index_until_its_append_ends() {
        assertThat(held.lowest()).isEqualTo(Long.MAX_VALUE);
        held.began(300);
        held.began(100);
        held.began(200);
        assertThat(held.lowest()).isEqualTo(100);
        held.ended(200);
        assertThat(held.lowest()).isEqualTo(100);
        held.ended(100);
        assertThat(held.lowest()).isEqualTo(300);
        held.ended(300);
        held.ended(300);
        assertThat(held.lowest()).isEqualTo(Long.MAX_VALUE);
        assertThat(held.size()).isZero();
    }

    @Test
    void an_append_held_past_the_stale_bound_no_longer_holds_the_reader_back() {
        held.began(100);
        nanos.set(600_000_000L);
        held.began(200);
        nanos.set(1_000_000_000L);
        assertThat(held.lowest()).isEqualTo(100);
        nanos.set(1_000_000_001L);
        assertThat(held.lowest()).isEqualTo(200);
        assertThat(held.size()).isEqualTo(1);
        nanos.set(1_600_000_001L);
        assertThat(held.lowest()).isEqualTo(Long.MAX_VALUE);
    }
}
