package io.axscheduler.bench.peers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FiresTest {

    private static final long PERIOD = 60_000;
    private static final long A = 1_800_000_000_000L;

    @Test
    void each_slot_in_the_window_is_expected_once_per_schedule() {
        // two schedules half a minute apart, a window of three minutes: three slots each
        Fires fires = new Fires(new long[] {A, A + 30_000}, PERIOD, 100);

        assertThat(stats(fires, A, A + 3 * PERIOD))
                .containsEntry("expected_fires", 6L)
                .containsEntry("fires", 0)
                .containsEntry("missed", 6L);
    }

    @Test
    void a_second_run_of_one_slot_is_a_duplicate_and_its_lag_is_the_first_runs() {
        Fires fires = new Fires(new long[] {A}, PERIOD, 100);
        fires.fired(0, A, (A + 40) * 1000);
        fires.fired(0, A, (A + 900) * 1000);

        assertThat(stats(fires, A, A + PERIOD))
                .containsEntry("expected_fires", 1L)
                .containsEntry("fires", 2)
                .containsEntry("missed", 0L)
                .containsEntry("duplicates", 1)
                .containsEntry("max_ms", 40.0);
    }

    @Test
    void lag_is_counted_from_the_schedules_own_slot_nearest_the_librarys_fire_time() {
        Fires fires = new Fires(new long[] {A}, PERIOD, 100);
        // the library says it fired the second slot 2 ms off the grid; the body starts 50 ms after that slot
        fires.fired(0, A + PERIOD + 2, (A + PERIOD + 50) * 1000);
        // no fire time from the library: the start is snapped to its slot
        fires.fired(0, 0, (A + 2 * PERIOD - 10) * 1000);

        assertThat(stats(fires, A, A + 3 * PERIOD))
                .containsEntry("fires", 2)
                .containsEntry("missed", 1L)
                .containsEntry("max_ms", 50.0)
                .containsEntry("min_ms", -10.0)
                .containsEntry("early", 1);
    }

    @Test
    void runs_of_slots_outside_the_window_are_not_counted() {
        Fires fires = new Fires(new long[] {A}, PERIOD, 100);
        fires.fired(0, A, A * 1000);
        fires.fired(0, A + PERIOD, (A + PERIOD) * 1000);
        fires.fired(0, A + 2 * PERIOD, (A + 2 * PERIOD) * 1000);

        assertThat(stats(fires, A + PERIOD, A + 2 * PERIOD))
                .containsEntry("expected_fires", 1L)
                .containsEntry("fires", 1)
                .containsEntry("missed", 0L)
                .containsEntry("duplicates", 0);
    }

    @Test
    void runs_beyond_the_capacity_are_dropped_and_said_so() {
        Fires fires = new Fires(new long[] {A}, PERIOD, 1);
        fires.fired(0, A, A * 1000);
        fires.fired(0, A + PERIOD, (A + PERIOD) * 1000);

        assertThat(stats(fires, A, A + 2 * PERIOD)).containsEntry("fires", 1).containsEntry("dropped_records", 1);
    }

    private static Map<String, Object> stats(Fires fires, long fromMs, long toMs) {
        Map<String, Object> line = new LinkedHashMap<>();
        fires.put(fromMs, toMs, line);
        return line;
    }
}
