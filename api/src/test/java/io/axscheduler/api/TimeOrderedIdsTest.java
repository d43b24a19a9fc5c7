package io.axscheduler.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

class TimeOrderedIdsTest {

    @Test
    void an_id_is_a_version_7_uuid_that_carries_its_millisecond() {
        long ms = 1_796_050_822_548L;
        UUID id = UUID.fromString(TimeOrderedIds.next(ms));

        assertThat(id.version()).isEqualTo(7);
        assertThat(id.variant()).isEqualTo(2);
        assertThat(id.getMostSignificantBits() >>> 16).isEqualTo(ms);
    }

    @Test
    void ids_of_later_milliseconds_sort_after_earlier_ones_as_strings_and_none_repeats() {
        List<String> ids = new ArrayList<>();
        for (long ms = 1_796_050_000_000L; ms < 1_796_050_000_000L + 1000; ms++) {
            ids.add(TimeOrderedIds.next(ms));
            ids.add(TimeOrderedIds.next(ms));
        }

        assertThat(ids.stream().map(id -> id.substring(0, 13)).toList()).isSorted();
        assertThat(new HashSet<>(ids)).hasSize(ids.size());
    }

    @Test
    void threads_making_ids_in_one_millisecond_never_repeat_one() throws Exception {
        long ms = 1_796_050_822_548L;
        Set<String> ids = ConcurrentHashMap.newKeySet();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            Thread thread = new Thread(() -> {
                for (int i = 0; i < 25_000; i++) ids.add(TimeOrderedIds.next(ms));
            });
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) thread.join();

        assertThat(ids).hasSize(8 * 25_000);
    }
}
