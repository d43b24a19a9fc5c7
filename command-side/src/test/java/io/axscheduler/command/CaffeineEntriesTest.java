package io.axscheduler.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Axon's cache contract, as its JCache adapter answered it, on the Caffeine cache itself. */
class CaffeineEntriesTest {

    private final CaffeineEntries cache = new CaffeineEntries(10);

    @Test
    void put_get_and_remove_answer_as_a_cache_does() {
        assertThat(cache.<String, String>get("a")).isNull();
        cache.put("a", "1");
        assertThat(cache.<String, String>get("a")).isEqualTo("1");
        assertThat(cache.containsKey("a")).isTrue();
        assertThat(cache.remove("a")).isTrue();
        assertThat(cache.remove("a")).isFalse();
        assertThat(cache.containsKey("a")).isFalse();
    }

    @Test
    void put_if_absent_keeps_the_first_value() {
        assertThat(cache.putIfAbsent("a", "1")).isTrue();
        assertThat(cache.putIfAbsent("a", "2")).isFalse();
        assertThat(cache.<String, String>get("a")).isEqualTo("1");
    }

    @Test
    void compute_if_absent_makes_a_value_once_and_refuses_null() {
        assertThat(cache.computeIfAbsent("a", () -> "1")).isEqualTo("1");
        assertThat(cache.computeIfAbsent("a", () -> "2")).isEqualTo("1");
        assertThatThrownBy(() -> cache.computeIfAbsent("b", () -> null)).isInstanceOf(IllegalArgumentException.class);
        assertThat(cache.containsKey("b")).isFalse();
    }

    @Test
    void compute_if_present_changes_only_what_is_there_and_null_removes() {
        cache.<String>computeIfPresent("a", v -> v + "!");
        assertThat(cache.containsKey("a")).isFalse();
        cache.put("a", "1");
        cache.<String>computeIfPresent("a", v -> v + "!");
        assertThat(cache.<String, String>get("a")).isEqualTo("1!");
        cache.<String>computeIfPresent("a", v -> null);
        assertThat(cache.containsKey("a")).isFalse();
    }

    @Test
    void remove_all_empties_it() {
        cache.put("a", "1");
        cache.put("b", "2");
        cache.removeAll();
        assertThat(cache.containsKey("a")).isFalse();
        assertThat(cache.containsKey("b")).isFalse();
    }

    @Test
    void an_entry_with_a_lifetime_is_gone_that_long_after_it_was_last_written() throws InterruptedException {
        CaffeineEntries living = new CaffeineEntries(10, Duration.ofMillis(200));
        living.put("a", "1");
        assertThat(living.<String, String>get("a")).isEqualTo("1");
        Thread.sleep(300);
        assertThat(living.containsKey("a")).isFalse();
        assertThat(living.<String, String>get("a")).isNull();
    }
}
